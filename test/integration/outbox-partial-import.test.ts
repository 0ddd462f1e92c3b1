/**
 * A partial import as an admin runs it (`attest queue import FILE --partial --rejects OUT.csv`)
 * against the reference tenant on 127.0.0.1: a 300-row removal CSV with bad rows of every sort
 * (an app user and an entitlement the complete sync never saw, a role the service does not manage,
 * an empty id, a row too short) queues the good rows as one batch and writes exactly the bad ones,
 * each with its line and reason; the rejects file, fixed where it can be and imported as it is,
 * queues the rest; a send removes each membership exactly once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { beforeAll, expect, it } from 'vitest';
import type { OutboxItem } from '../../src/main/outbox/queue';
import type { Membership } from '../../src/tenant/model';
import { MANAGED_ENTITLEMENT_KINDS } from '../../src/tenant/dataset';
import type { TestTenant } from '../helpers/tenant';
import { useSyncedTenant } from './synced-tenant';

const synced = useSyncedTenant({ seed: 53, scale: 2, name: 'bulk' });
const cli = synced.cli;
let tenant: TestTenant;
let tmp: { dir: string };
beforeAll(() => {
  tenant = synced.tenant();
  tmp = { dir: synced.dir() };
});

interface Row {
  app_id: string;
  app_entitlement_id: string;
  app_user_id: string;
}

const rowOf = (m: Membership): Row => ({ app_id: m.appId, app_entitlement_id: m.appEntitlementId, app_user_id: m.appUserId });

it('queues the good rows of a 300-row CSV, writes exactly the bad ones, and the fixed rejects file queues the rest', async () => {
  const memberships = [...(tenant.data.memberships.values() as IterableIterator<Membership>)];
  const kindOf = (m: Membership) => tenant.data.entitlements.get(m.appEntitlementId)!.kind;
  const managed = memberships.filter((m) => MANAGED_ENTITLEMENT_KINDS.includes(kindOf(m)));
  const roles = memberships.filter((m) => kindOf(m) === 'role');
  expect(managed.length).toBeGreaterThanOrEqual(300);
  expect(roles.length).toBeGreaterThanOrEqual(2);

  // 300 rows: 292 good ones, and 8 bad ones spread through the file (data lines start at 2).
  const good = managed.slice(0, 292).map(rowOf);
  const spare = managed.slice(292, 300).map(rowOf);
  const bad: { at: number; fields: string[]; reason: RegExp; fix: Row | null }[] = [
    {
      at: 10,
      fields: [good[0]!.app_id, good[0]!.app_entitlement_id, 'no-such-user'],
      reason: /^app_user_id: unknown app user no-such-user: not in the tenant as of run 1 \(/,
      fix: spare[0]!,
    },
    {
      at: 45,
      fields: [good[1]!.app_id, 'no-such-entitlement', good[1]!.app_user_id],
      reason: /^app_entitlement_id: unknown entitlement no-such-entitlement: not in the tenant as of run 1/,
      fix: spare[1]!,
    },
    {
      at: 90,
      fields: Object.values(rowOf(roles[0]!)),
      reason: /is a Role \(synced from its app\): the service does not manage its memberships/,
      fix: null,
    },
    { at: 120, fields: [good[2]!.app_id, '', good[2]!.app_user_id], reason: /^app_entitlement_id is required/, fix: spare[2]! },
    { at: 150, fields: [good[3]!.app_id, good[3]!.app_entitlement_id], reason: /has 2 fields but the header has 3/, fix: spare[3]! },
    { at: 200, fields: Object.values(rowOf(roles[1]!)), reason: /is a Role/, fix: null },
    {
      at: 250,
      fields: ['no-such-app', good[4]!.app_entitlement_id, good[4]!.app_user_id],
      reason: /unknown app no-such-app: not in the tenant as of run 1/,
      fix: spare[4]!,
    },
    {
      at: 299,
      fields: [good[5]!.app_id, good[5]!.app_entitlement_id, 'x\u0007y'],
      reason: /a control character \(U\+0007\)/,
      fix: spare[5]!,
    },
  ];
  const records: string[][] = good.map((r) => Object.values(r));
  for (const b of bad) records.splice(b.at - 2, 0, b.fields);
  expect(records).toHaveLength(300);
  const file = join(tmp.dir, 'removals.csv');
  writeFileSync(file, stringify([['app_id', 'app_entitlement_id', 'app_user_id'], ...records], { record_delimiter: '\r\n' }));

  const rejects = join(tmp.dir, 'r.csv');
  const run = await cli('queue', 'import', file, '--kind', 'remove-membership', '--partial', '--rejects', rejects);
  expect(run.code, run.err).toBe(6);
  expect(run.err).toMatch(/queued 292 of 300 rows, 8 refused as batch 1 \(removals\.csv\)/);
  const written = parse(readFileSync(rejects, 'utf8'), { columns: true, relax_column_count: true }) as Record<string, string>[];
  expect(written.map((r) => Number(r.rejected_line))).toEqual(bad.map((b) => b.at));
  written.forEach((r, i) => {
    expect(r.rejected_reason, `line ${bad[i]!.at}`).toMatch(bad[i]!.reason);
    expect([r.app_id, r.app_entitlement_id, r.app_user_id].slice(0, bad[i]!.fields.length)).toEqual(bad[i]!.fields);
  });
  const first = JSON.parse((await cli('queue', 'list', '--json')).out) as OutboxItem[];
  expect(first).toHaveLength(292);
  expect(new Set(first.map((i) => `${i.input.appEntitlementId}:${i.input.appUserId}`))).toEqual(
    new Set(good.map((g) => `${g.app_entitlement_id}:${g.app_user_id}`)),
  );

  // The admin fixes what can be fixed in r.csv (the two roles cannot be removed here: deleted) and imports it as it is.
  const fixed = written.flatMap((r, i) => {
    const fix = bad[i]!.fix;
    return fix ? [{ ...r, ...fix }] : [];
  });
  writeFileSync(rejects, stringify(fixed, { header: true }));
  const rest = await cli('queue', 'import', rejects, '--kind', 'remove-membership', '--partial', '--rejects', join(tmp.dir, 'r2.csv'));
  expect(rest.code, rest.err).toBe(0);
  expect(rest.err).toMatch(/queued 6 of 6 rows as batch 2 \(r\.csv\)/);
  expect(rest.err).not.toMatch(/warning|refused/);

  const sent = await cli('queue', 'send');
  expect(sent.code, sent.err).toBe(0);
  const items = JSON.parse((await cli('queue', 'list', '--json')).out) as OutboxItem[];
  expect(items.filter((i) => i.state !== 'succeeded')).toEqual([]);
  expect(items).toHaveLength(298);
  const removals = tenant.journal().filter((j) => j.operation === 'removeMembership');
  expect(removals).toHaveLength(298);
}, 180_000);
