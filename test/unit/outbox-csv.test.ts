import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeCsvBytes } from '../../src/main/outbox/csv-import';
import { openTestOutbox, type TestOutbox } from './outbox.fake';

let t: TestOutbox;
beforeEach(() => {
  t = openTestOutbox();
});
afterEach(() => t.close());

const SCOPE_HEADER = 'app_id,xaa_resource_server_id,scope_value,display_name,description,classification,state';

describe('CSV import: removals', () => {
  it('reads a BOM, CRLF, quoted commas and empty lines, and queues every row in one go', () => {
    const csv = '\uFEFFapp_id,app_entitlement_id,app_user_id\r\napp-1,ent-1,u1\r\n\r\n   \r\n"app-1","ent-1","u2"\r\napp-1,ent-2,u3\r\n';
    const result = t.outbox.importCsv(csv, 'remove-membership');
    expect(result.errors).toEqual([]);
    expect(result.queued).toBe(3);
    expect(result.valid.map((r) => r.line)).toEqual([2, 5, 6]);
    expect(t.outbox.list().map((i) => i.input.appUserId)).toEqual(['u1', 'u2', 'u3']);
    expect(t.outbox.list().every((i) => i.source?.startsWith('csv:'))).toBe(true);
  });

  it('accepts headers in any order and camelCase, ignoring extra columns with a warning', () => {
    const csv = 'appUserId,note,appId,appEntitlementId\nu1,"hello, world",app-1,ent-1\n';
    const result = t.outbox.importCsv(csv, 'remove-membership');
    expect(result.queued).toBe(1);
    // And, once for the file, what the store could not check (nothing synced yet).
    expect(result.warnings).toEqual([
      expect.stringMatching(/column 2 'note' is not used/),
      'apps have not been synced yet: the app ids are not checked against the store',
      'entitlements have not been synced yet: the entitlement ids are not checked against the store',
      'app users have not been synced yet: the app user ids are not checked against the store',
    ]);
    expect(result.rowWarnings).toEqual([]);
    expect(t.outbox.list()[0]?.input).toEqual({ appId: 'app-1', appEntitlementId: 'ent-1', appUserId: 'u1' });
  });

  it('names a missing column and imports nothing', () => {
    const result = t.outbox.importCsv('app_id,app_user_id\napp-1,u1\n', 'remove-membership');
    expect(result.errors).toEqual([
      { line: 1, column: 0, field: 'app_entitlement_id', message: expect.stringMatching(/missing column 'app_entitlement_id'/) },
    ]);
    expect(result.queued).toBe(0);
    expect(t.outbox.list()).toHaveLength(0);
  });

  it('says when the first line is data, not a header', () => {
    const result = t.outbox.previewImport('app-1,ent-1,u1\n', 'remove-membership');
    expect(result.errors[0]?.message).toMatch(/first line must be a header/);
  });

  it('reports short and long rows with line and column; never a partial import', () => {
    const csv = [
      'app_id,app_entitlement_id,app_user_id',
      'app-1,ent-1,u1',
      'app-1,ent-1',
      'app-1,ent-1,u3,extra',
      'app-1,,u4',
      'app-1,ent-1,u5',
    ].join('\n');
    const result = t.outbox.importCsv(csv, 'remove-membership');
    expect(result.errors).toEqual([
      {
        line: 3,
        column: 3,
        field: 'app_user_id',
        message: expect.stringMatching(/line 3 has 2 fields but the header has 3: app_user_id missing/),
      },
      { line: 4, column: 4, field: 'row', message: expect.stringMatching(/4 fields.*quote values that contain commas/) },
      { line: 5, column: 2, field: 'app_entitlement_id', message: expect.stringMatching(/app_entitlement_id is required/) },
    ]);
    expect(result.queued).toBe(0);
    expect(t.outbox.list()).toHaveLength(0);
    expect(t.outbox.journal()).toHaveLength(0);
  });

  it('reports duplicates in the file and against the queue, and skips them', () => {
    t.outbox.enqueue('remove-membership', { appId: 'app-1', appEntitlementId: 'ent-1', appUserId: 'u9' });
    const csv = 'app_id,app_entitlement_id,app_user_id\napp-1,ent-1,u1\napp-1,ent-1,u9\napp-1,ent-1,u1\napp-1,ent-1,u2\n';
    const preview = t.outbox.previewImport(csv, 'remove-membership');
    expect(preview.duplicatesInFile).toEqual([{ line: 4, firstLine: 2, key: 'membership:app-1/ent-1/u1' }]);
    expect(preview.duplicatesInQueue).toEqual([
      expect.objectContaining({ line: 3, itemState: 'queued', key: 'membership:app-1/ent-1/u9' }),
    ]);
    expect(preview.valid.map((r) => r.line)).toEqual([2, 5]);
    expect(t.outbox.list()).toHaveLength(1); // a preview writes nothing
    const dry = t.outbox.importCsv(csv, 'remove-membership', { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, queued: 0 });
    expect(t.outbox.importCsv(csv, 'remove-membership').queued).toBe(2);
    expect(t.outbox.list()).toHaveLength(3);
  });

  it('imports 100,000 rows in one transaction, and refuses them all for one bad row', () => {
    const lines = ['app_id,app_entitlement_id,app_user_id'];
    for (let i = 0; i < 100_000; i += 1) lines.push(`app-${i % 7},ent-${i % 101},user-${i}`);
    const bad = [...lines];
    bad[77_778] = 'app-1,ent-1,bad user';
    const refused = t.outbox.importCsv(bad.join('\r\n'), 'remove-membership');
    expect(refused.errors).toEqual([{ line: 77_779, column: 3, field: 'app_user_id', message: expect.stringMatching(/not a valid id/) }]);
    expect(refused.queued).toBe(0);
    expect(t.outbox.pendingCount()).toBe(0);
    const result = t.outbox.importCsv(lines.join('\r\n'), 'remove-membership');
    expect(result.queued).toBe(100_000);
    expect(t.outbox.pendingCount()).toBe(100_000);
    expect(t.outbox.overlays('memberships', ['ent-3:user-3'])).toHaveLength(1);
    // How fast: `npm run bench -- outbox` (a busy machine must not fail this test).
  }, 300_000);
});

describe('CSV import: scopes', () => {
  it('validates scope values by bytes and charset, and enums, with precise positions', () => {
    const csv = [
      SCOPE_HEADER,
      `app-1,rs-1,${'a'.repeat(256)},ok,,READ,`,
      `app-1,rs-1,${'b'.repeat(257)},too long,,,`,
      'app-1,rs-1,read write,space,,,',
      'app-1,rs-1,read:x,bad enum,,SPICY,',
      'app-1,rs-1,"read:q","Quoted, with comma","multi\nline",XAA_SCOPE_CLASSIFICATION_WRITE,enabled',
    ].join('\r\n');
    const preview = t.outbox.previewImport(csv, 'create-scope');
    expect(preview.errors).toEqual([
      { line: 3, column: 3, field: 'scope_value', message: expect.stringMatching(/^scope_value is 257 bytes long; at most 256/) },
      { line: 4, column: 3, field: 'scope_value', message: expect.stringMatching(/a space \(U\+0020\) at position 5/) },
      { line: 5, column: 6, field: 'classification', message: expect.stringMatching(/'SPICY' is not a known value/) },
    ]);
    expect(preview.valid.map((r) => r.line)).toEqual([2, 6]);
    expect(preview.valid[0]?.input.classification).toBe('XAA_SCOPE_CLASSIFICATION_READ');
    expect(preview.valid[1]?.input).toMatchObject({
      displayName: 'Quoted, with comma',
      description: 'multi\nline',
      state: 'XAA_SCOPE_STATE_ENABLED',
    });
    expect(t.outbox.importCsv(csv, 'create-scope').queued).toBe(0);
  });

  it('refuses bytes that are not UTF-8 with their line and column', () => {
    const header = Buffer.from(`${SCOPE_HEADER}\n`);
    const row1 = Buffer.from('app-1,rs-1,read:a,ok,,,\n');
    const row2 = Buffer.concat([Buffer.from('app-1,rs-1,read:b,caf'), Buffer.from([0xe9]), Buffer.from(',,,\n')]);
    const bytes = Buffer.concat([header, row1, row2]);
    const decoded = decodeCsvBytes(bytes);
    expect(decoded.error).toEqual({ line: 3, column: 22, field: 'file', message: expect.stringMatching(/not UTF-8/) });
    const result = t.outbox.importCsv(bytes, 'create-scope');
    expect(result.errors[0]).toMatchObject({ line: 3, column: 22 });
    expect(result.queued).toBe(0);
    expect(decodeCsvBytes(Buffer.from([0xff, 0xfe, 0x61, 0x00])).error?.message).toMatch(/UTF-16/);
    // Text already decoded with replacement characters is refused too.
    const text = `${SCOPE_HEADER}\napp-1,rs-1,read:c,caf\uFFFD,,,\n`;
    expect(t.outbox.previewImport(text, 'create-scope').errors[0]).toMatchObject({ line: 2, column: 4, field: 'display_name' });
  });

  it('reports unclosed quotes as a file error', () => {
    const result = t.outbox.previewImport(`${SCOPE_HEADER}\napp-1,rs-1,"read:a,x,,,\n`, 'create-scope');
    expect(result.errors[0]?.message).toMatch(/not valid CSV/);
  });

  it('an empty file or a header alone is an error', () => {
    expect(t.outbox.previewImport('', 'create-scope').errors[0]?.message).toMatch(/empty/);
    expect(t.outbox.previewImport(`${SCOPE_HEADER}\n\n`, 'create-scope').errors[0]?.message).toMatch(/no rows/);
  });
});
