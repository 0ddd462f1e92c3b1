/**
 * Templates added by id (`attest template add`) and live reads of one object (`attest show --live`)
 * against the reference tenant (127.0.0.1, random port), with a real SQLite store and the CLI run
 * as a user runs it: a template no campaign or automation names is added, updated through the
 * outbox, kept by every later sync (and reported when the tenant no longer has it); a campaign
 * changed on the tenant is read through `GET /access_review/{id}` and stored as a new version.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import type { AccessReviewTemplate } from '../../src/shared/api-types';
import { campaignView } from '../../src/tenant/routes/campaigns';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { referencedTemplateIds, runCli, tempDir } from './sync.helpers';

let tenant: TestTenant;
let tmp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let storeFile: string;

/** Templates of the tenant that no campaign or automation names. */
const unreferenced = (): string[] => {
  const named = referencedTemplateIds(tenant.data);
  return [...tenant.data.templates.keys()].filter((id) => !named.has(id));
};

const cli = (...argv: string[]) => runCli([...argv, '--connection', 'tpl'], env);

/** What the store holds now (read in a connection of its own, closed again). */
function inStore<T>(read: (store: ReturnType<typeof openStore>) => T): T {
  const store = openStore(storeFile);
  try {
    return read(store);
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  tenant = await startTestTenant({ seed: 5 });
  tmp = tempDir('attest-templates-');
  const dataDir = join(tmp.dir, 'data');
  const connection = prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'tpl' });
  recordConnection(dataDir, connection);
  storeFile = connection.storeFile;
  env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };
  const synced = await cli('sync');
  expect(synced.code, synced.err).toBe(0);
});
afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

describe('attest template add', () => {
  it('the tenant holds templates no campaign or automation names', () => {
    expect(unreferenced().length).toBeGreaterThanOrEqual(2);
    const synced = inStore((s) => s.listObjects('templates').rows.map((r) => r.id));
    for (const id of unreferenced()) expect(synced).not.toContain(id);
  });

  it('adds an unreferenced template, which an update-template change then sends, and the tenant is updated', async () => {
    const id = unreferenced()[0]!;
    const changes = join(tmp.dir, 'changes.json');
    writeFileSync(changes, JSON.stringify({ description: 'Reviewed by the audit committee' }));
    const before = await cli('queue', 'add', 'update-template', '--template', id, '--file', changes);
    expect(before.code).not.toBe(0);
    expect(before.err).toContain(`template ${id} is not in the local store`);

    const added = await cli('template', 'add', id);
    expect(added.code, added.err).toBe(0);
    const name = tenant.data.templates.get(id)!.displayName!;
    expect(added.out).toContain(`${id}  ${name}`);
    expect(added.err).toMatch(/1 template added \(stored in run \d+\); every sync now reads it/);
    expect(inStore((s) => s.getObject('templates', id)?.title)).toBe(name);
    expect(inStore((s) => s.runs()[0]!.origin)).toBe('live');

    const queued = await cli('queue', 'add', 'update-template', '--template', id, '--file', changes);
    expect(queued.code, queued.err).toBe(0);
    const sent = await cli('queue', 'send');
    expect(sent.code, sent.err + sent.out).toBe(0);
    expect((tenant.data.templates.get(id) as AccessReviewTemplate).description).toBe('Reviewed by the audit committee');
  });

  it('every later sync reads the added template with the referenced ones, and says templates are "referenced or added"', async () => {
    const id = unreferenced()[0]!;
    tenant.data.touch('templates', id, { displayName: 'Renamed on the tenant' });
    const synced = await cli('sync', '--json');
    expect(synced.code, synced.err).toBe(0);
    const summary = JSON.parse(synced.out) as { collections: { collection: string; fetched: number; gone?: string[] }[] };
    const templates = summary.collections.find((c) => c.collection === 'templates')!;
    expect(templates.fetched).toBe(referencedTemplateIds(tenant.data).size + 1);
    expect(templates.gone).toBeUndefined();
    const stored = inStore((s) => s.getObject('templates', id));
    expect(stored?.deleted).toBe(false);
    expect(stored?.title).toBe('Renamed on the tenant');
    expect(JSON.parse(stored!.raw)).toEqual(tenant.data.templates.get(id));

    const runs = await cli('runs');
    expect(runs.code, runs.err).toBe(0);
    expect(runs.out).toMatch(/templates\s.*referenced or added/);
    expect(runs.out).toContain(
      'templates: referenced or added: the API has no list of templates; those named by access review campaigns and automations, and those added by id, are fetched one by one',
    );
    const listed = await cli('template', 'list', '--json');
    expect(JSON.parse(listed.out)).toEqual([{ id, title: 'Renamed on the tenant', stored: true, referenced: false }]);
  });

  it('an id the tenant does not have is an error naming it; the other ids are added all the same', async () => {
    const other = unreferenced()[1]!;
    const result = await cli('template', 'add', 'no-such-template', other, '--json');
    expect(result.code).toBe(1);
    expect(result.err).toContain('template no-such-template: the tenant has no such template (404); not added');
    const answer = JSON.parse(result.out) as { added: { id: string; newlyAdded: boolean }[]; notFound: string[] };
    expect(answer.added).toEqual([expect.objectContaining({ id: other, newlyAdded: true })]);
    expect(answer.notFound).toEqual(['no-such-template']);
    const listed = JSON.parse((await cli('template', 'list', '--json')).out) as { id: string }[];
    expect(listed.map((t) => t.id).sort()).toEqual([unreferenced()[0]!, other].sort());
  });

  it('offline (a store opened without the tenant) it says it needs the tenant, and adds nothing', async () => {
    const id = unreferenced()[1]!;
    const before = inStore((s) => s.runs().length);
    const result = await runCli(['template', 'add', id, '--store', storeFile], {});
    expect(result.code).toBe(4);
    expect(result.err).toMatch(/Adding a template by id reads it from the tenant, which needs a connection to it/);
    expect(inStore((s) => s.runs().length)).toBe(before);
  });

  it('a sync reports an added template the tenant no longer has, keeps it added, and remove stops reading it', async () => {
    const id = unreferenced()[1]!;
    const template = tenant.data.templates.get(id)!;
    tenant.data.templates.delete(id);
    try {
      const synced = await cli('sync', '--json');
      expect(synced.code, synced.err).toBe(0);
      const summary = JSON.parse(synced.out) as { runId: number; collections: { collection: string; gone?: string[] }[] };
      expect(summary.collections.find((c) => c.collection === 'templates')!.gone).toEqual([id]);
      expect(synced.err).toContain(
        `templates: 1 id added by id no longer on the tenant (404): ${id}. Gone from the store as of run ${summary.runId}`,
      );
      expect(inStore((s) => s.getObject('templates', id)?.deleted)).toBe(true);
      const listed = JSON.parse((await cli('template', 'list', '--json')).out) as { id: string; stored: boolean }[];
      expect(listed.find((t) => t.id === id)).toMatchObject({ stored: false });

      const removed = await cli('template', 'remove', id);
      expect(removed.code, removed.err).toBe(0);
      const again = JSON.parse((await cli('sync', '--json')).out) as { collections: { collection: string; gone?: string[] }[] };
      expect(again.collections.find((c) => c.collection === 'templates')!.gone).toBeUndefined();
      expect((await cli('template', 'remove', id)).err).toContain(`template ${id}: was not added by id`);
    } finally {
      tenant.data.templates.set(id, template);
    }
  });
});

describe('attest show --live', () => {
  it('reads a campaign through GET /access_review/{id}, stores the fresh copy as a new version and prints what changed', async () => {
    const campaign = [...tenant.data.campaigns.values()][0]!;
    const id = campaign.id!;
    const oldName = campaign.displayName!;
    const heldRun = inStore((s) => s.getObject('campaigns', id)!.runId);
    tenant.data.touch('campaigns', id, { displayName: 'Q4 review, extended' });

    const live = await cli('show', 'campaigns', id, '--live');
    expect(live.code, live.err).toBe(0);
    expect((JSON.parse(live.out) as { accessReview: { displayName: string } }).accessReview.displayName).toBe('Q4 review, extended');
    expect(live.err).toContain(`campaigns ${id} read from the tenant at`);
    expect(live.err).toContain(`since the version of run ${heldRun}:`);
    expect(live.err).toContain(`displayName: ${JSON.stringify(oldName)} → "Q4 review, extended"`);
    expect(live.err).toMatch(/updatedAt: /);
    expect(live.err).toMatch(/Stored as a fresh copy in run \d+\./);

    const stored = inStore((s) => ({ object: s.getObject('campaigns', id)!, run: s.runs()[0]! }));
    expect(stored.object.title).toBe('Q4 review, extended');
    // The `accessReview` member of the GET's wrapper: the campaign's view, byte for byte as served.
    expect(stored.object.raw).toBe(JSON.stringify(campaignView(tenant.data.campaigns.get(id)!)));
    expect(stored.run.origin).toBe('live');
    expect(stored.object.runId).toBe(stored.run.id);
    const history = await cli('show', 'campaigns', id, '--history', '--json');
    const versions = JSON.parse(history.out) as { runId: number; changedFields: string[] }[];
    expect(versions.at(-1)).toMatchObject({ runId: stored.run.id, changedFields: expect.arrayContaining(['displayName']) });

    const again = await cli('show', 'campaigns', id, '--live', '--json');
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ runId: null, changeCount: 0, before: { runId: stored.run.id } });
  });

  it('offline, on a 404, or for a collection without a read of one object: a clear error, and the store is left as it was', async () => {
    const id = [...tenant.data.campaigns.keys()][1]!;
    const runs = inStore((s) => s.runs().length);
    const offline = await runCli(['show', 'campaigns', id, '--live', '--store', storeFile], {});
    expect(offline.code).toBe(4);
    expect(offline.err).toMatch(/Refreshing campaigns .* reads it from the tenant, which needs a connection to it/);
    const missing = await cli('show', 'campaigns', 'no-such-campaign', '--live');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('The tenant has no campaigns object no-such-campaign (404). The store was left as it was');
    tenant.faults.set('html=1');
    try {
      const failed = await cli('show', 'campaigns', id, '--live');
      expect(failed.code).toBe(1);
      expect(failed.err).toMatch(/not JSON|HTML/i);
    } finally {
      tenant.faults.clear();
    }
    const unsupported = await cli('show', 'scopes', 'x', '--live');
    expect(unsupported.code).toBe(2);
    expect(unsupported.err).toContain('--live: the API has no read of one scopes object (only campaigns, templates, automations, tasks)');
    expect(inStore((s) => s.runs().length)).toBe(runs);
  });

  it('--help says what show prints and what --live reads', async () => {
    const help = await runCli(['show', '--help']);
    expect(help.err + help.out).toContain("campaigns: the spec's GET /access_review/{id}");
    expect(help.err + help.out).toContain('--live');
  });
});
