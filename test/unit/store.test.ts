import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/main/store/db';
import type { PageToStore } from '../../src/main/store/sync-writer';
import { collection, prepareObject, type CollectionId } from '../../src/main/collections';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'attest-store-'));
  store = openStore(join(dir, 'store.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A scope as the tenant would send it (key order and spacing kept as given). */
function scope(id: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id,
    appId: 'app-1',
    xaaResourceServerId: 'rs-1',
    scopeValue: `files:${id}`,
    displayName: `Scope ${id}`,
    description: 'Reads files',
    classification: 'XAA_SCOPE_CLASSIFICATION_READ',
    state: 'XAA_SCOPE_STATE_ENABLED',
    ...fields,
  });
}

/** Stores one page of raw objects as a walk of `runId` would (the next token '' completes the walk). */
function page(runId: number, id: CollectionId, raws: string[], next = '', walk?: number) {
  const d = collection(id);
  const w = walk ?? store.sync.walk(runId, id).walk;
  return store.sync.commitPage(
    runId,
    id,
    w,
    raws.map((raw) => prepareObject(d, { raw, json: JSON.parse(raw) })),
    next,
    new Date().toISOString(),
  );
}

/** A whole run of one collection: every page stored, the walk completed. */
function run(id: CollectionId, pages: string[][]): number {
  const { runId } = store.sync.beginRun([id]);
  store.sync.startWalk(runId, id);
  pages.forEach((raws, i) => page(runId, id, raws, i === pages.length - 1 ? '' : `t${i + 1}`));
  expect(store.sync.finishRun(runId)).toBe('completed');
  return runId;
}

describe('store', () => {
  it('opens with WAL, foreign keys and every migration applied', () => {
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = store.db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table')").pluck().all();
    expect(tables).toEqual(
      expect.arrayContaining(['sync_runs', 'sync_run_collections', 'objects', 'object_versions', 'search_index', 'schema_migrations']),
    );
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('keeps the raw JSON byte-exact and extracts columns', () => {
    const raw =
      '{"id":"s1", "scopeValue":"files:read","displayName":"Zoë 🔐 \\"quoted\\"","state":"XAA_SCOPE_STATE_NEW_IN_V2","unknownField":{"x":[1,2]}}';
    const r1 = run('scopes', [[raw]]);
    const obj = store.getObject('scopes', 's1')!;
    expect(obj.raw).toBe(raw);
    expect(obj.json).toEqual(JSON.parse(raw));
    expect(obj.columns.state).toBe('XAA_SCOPE_STATE_NEW_IN_V2');
    expect(obj.columns.scopeValue).toBe('files:read');
    expect(obj.title).toBe('Zoë 🔐 "quoted"');
    expect(obj).toMatchObject({ collection: 'scopes', id: 's1', runId: r1, firstSeenRun: r1, lastSeenRun: r1, deleted: false });
    expect(store.getObject('scopes', 'nope')).toBeNull();
  });

  it('stores a new version only when an object changed, and every completed run is a snapshot', () => {
    const r1 = run('scopes', [[scope('a'), scope('b')], [scope('c')]]);
    const versionsAfter1 = store.db.prepare('SELECT count(*) FROM object_versions').pluck().get();
    const r2 = run('scopes', [[scope('a'), scope('b', { state: 'XAA_SCOPE_STATE_DISABLED', description: 'Now off' })], [scope('d')]]);
    // a unchanged (no copy), b modified, c deleted, d added.
    expect(store.db.prepare('SELECT count(*) FROM object_versions').pluck().get()).toBe((versionsAfter1 as number) + 2);
    expect(store.listObjects('scopes').rows.map((o) => o.id)).toEqual(['a', 'b', 'd']);
    expect(store.listObjects('scopes', { asOfRun: r1 }).rows.map((o) => o.id)).toEqual(['a', 'b', 'c']);
    expect(store.getObject('scopes', 'b', { asOfRun: r1 })!.columns.state).toBe('XAA_SCOPE_STATE_ENABLED');
    expect(store.getObject('scopes', 'b')!.columns.state).toBe('XAA_SCOPE_STATE_DISABLED');
    expect(store.getObject('scopes', 'a')!.runId).toBe(r1);
    expect(store.getObject('scopes', 'a')!.lastSeenRun).toBe(r2);
    const c = store.getObject('scopes', 'c')!;
    expect(c.deleted).toBe(true);
    expect(store.getObject('scopes', 'c', { asOfRun: r2 })).toBeNull();

    // Each change names the app of the scope, and a modified one gives every value before and after.
    const of = { appId: 'app-1', appEntitlementId: null };
    const unchanged = { changedFields: [], fieldChanges: [], fieldCount: 0, ...of };
    expect(store.diff(r1, r2)).toEqual([
      {
        collection: 'scopes',
        id: 'b',
        title: 'Scope b',
        change: 'modified',
        changedFields: ['description', 'state'],
        fieldChanges: [
          { field: 'description', before: 'Reads files', after: 'Now off' },
          { field: 'state', before: 'XAA_SCOPE_STATE_ENABLED', after: 'XAA_SCOPE_STATE_DISABLED' },
        ],
        fieldCount: 2,
        ...of,
      },
      { collection: 'scopes', id: 'c', title: 'Scope c', change: 'removed', ...unchanged },
      { collection: 'scopes', id: 'd', title: 'Scope d', change: 'added', ...unchanged },
    ]);
    expect(store.diff(r2, r2)).toEqual([]);
    expect(() => store.diff(r2, r1)).toThrow(/must not be after/);
    expect(() => store.diff(r1, 99)).toThrow(/no sync run 99/);

    // c comes back in a third run: history shows added, removed, added.
    const r3 = run('scopes', [
      [scope('a'), scope('b', { state: 'XAA_SCOPE_STATE_DISABLED', description: 'Now off' }), scope('c'), scope('d')],
    ]);
    expect(store.history('scopes', 'c').map((h) => [h.change, h.runId])).toEqual([
      ['added', r1],
      ['removed', r2],
      ['added', r3],
    ]);
    expect(store.history('scopes', 'b').map((h) => [h.change, h.runId, h.changedFields])).toEqual([
      ['added', r1, []],
      ['modified', r2, ['description', 'state']],
    ]);
    expect(store.diff(r1, r3).map((d) => [d.id, d.change])).toEqual([
      ['b', 'modified'],
      ['d', 'added'],
    ]);
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('rewrites a search entry only when the searched text changed', () => {
    const blocks = () => store.db.prepare('SELECT id, block FROM search_index_data ORDER BY id').raw().all();
    const terms = () => store.db.prepare('SELECT term, docs FROM search_terms ORDER BY term').raw().all();
    run('scopes', [[scope('a'), scope('b')]]);
    store.sync.refreshSearchTerms();
    const index = blocks();
    const words = terms();
    // a: a new version (a column no search looks at changed); b: unchanged. The index is as it was.
    run('scopes', [[scope('a', { updatedAt: '2026-01-02T00:00:00Z' }), scope('b')]]);
    expect(store.db.prepare('SELECT count(*) FROM object_versions').pluck().get()).toBe(3);
    expect(store.getObject('scopes', 'a')!.columns.updatedAt).toBe('2026-01-02T00:00:00Z');
    expect(blocks()).toEqual(index);
    store.sync.refreshSearchTerms();
    expect(terms()).toEqual(words);
    // The searched text of b changed: its entry is rewritten, and the words list follows.
    run('scopes', [[scope('a', { updatedAt: '2026-01-02T00:00:00Z' }), scope('b', { description: 'Writes ledgers' })]]);
    expect(blocks()).not.toEqual(index);
    expect(store.search('ledgers').hits.map((h) => h.id)).toEqual(['b']);
    store.sync.refreshSearchTerms();
    expect(terms()).toContainEqual(['ledgers', 1]);
  });

  it('reports campaign changes by the fields of the campaign inside its view', () => {
    const wrap = (state: string, extra = {}) =>
      JSON.stringify({ accessReview: { id: 'c1', displayName: 'Q1 review', state, ...extra }, createdByUserPath: '/u/1' });
    const r1 = run('campaigns', [[wrap('ACCESS_REVIEW_STATE_DRAFT')]]);
    const r2 = run('campaigns', [[wrap('ACCESS_REVIEW_STATE_STARTED', { startedAt: '2026-01-01T00:00:00Z' })]]);
    expect(store.diff(r1, r2)).toEqual([
      {
        collection: 'campaigns',
        id: 'c1',
        title: 'Q1 review',
        change: 'modified',
        changedFields: ['startedAt', 'state'],
        // Paths inside the view, as changedFields names them; startedAt was absent before.
        fieldChanges: [
          { field: 'startedAt', before: undefined, after: '2026-01-01T00:00:00Z' },
          { field: 'state', before: 'ACCESS_REVIEW_STATE_DRAFT', after: 'ACCESS_REVIEW_STATE_STARTED' },
        ],
        fieldCount: 2,
        appId: null,
        appEntitlementId: null,
      },
    ]);
    expect(store.getObject('campaigns', 'c1')!.columns.state).toBe('ACCESS_REVIEW_STATE_STARTED');
  });

  it('filters, sorts and pages lists; routing rules come in priority order', () => {
    const rule = (id: string, priority: number | undefined, enabled: boolean, action: string) =>
      JSON.stringify({
        id,
        displayName: `Rule ${id}`,
        ...(priority === undefined ? {} : { priority }),
        ...(enabled ? { enabled } : {}),
        action: { [action]: { reason: 'r' } },
      });
    run('routing-rules', [
      [
        rule('r1', 30, true, 'suppress'),
        rule('r2', 10, false, 'snooze'),
        rule('r3', undefined, true, 'acceptRisk'),
        rule('r4', 20, true, 'suppress'),
      ],
    ]);
    expect(store.listObjects('routing-rules').rows.map((r) => r.id)).toEqual(['r3', 'r2', 'r4', 'r1']); // absent priority is 0
    expect(store.listObjects('routing-rules', { filters: { enabled: true } }).rows.map((r) => r.id)).toEqual(['r3', 'r4', 'r1']);
    expect(store.listObjects('routing-rules', { filters: { enabled: 'false' } }).rows.map((r) => r.id)).toEqual(['r2']);
    expect(
      store
        .listObjects('routing-rules', { filters: { actionKind: ['suppress', 'snooze'] }, sort: { column: 'priority', dir: 'desc' } })
        .rows.map((r) => r.id),
    ).toEqual(['r1', 'r4', 'r2']);
    const pageTwo = store.listObjects('routing-rules', { limit: 2, offset: 2 });
    expect(pageTwo.rows.map((r) => r.id)).toEqual(['r4', 'r1']);
    expect(pageTwo.total).toBe(4);
    expect(store.countObjects('routing-rules', { filters: { actionKind: 'suppress' } })).toBe(2);
    expect([...store.iterateObjects('routing-rules')].map((r) => r.id)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(() => store.listObjects('routing-rules', { filters: { nope: 1 } })).toThrow(/unknown column 'nope'/);
    expect(() => store.listObjects('routing-rules', { sort: { column: "x') --", dir: 'asc' } })).toThrow(/unknown column/);
    expect(() => store.listObjects('routing-rules', { filters: { enabled: 'maybe' } })).toThrow(/true or false/);
  });

  it('resumes an interrupted run from its checkpoint and deletes nothing before a walk completes', () => {
    const r1 = run('scopes', [[scope('a'), scope('b')], [scope('c')]]);
    const second = store.sync.beginRun(['scopes']);
    expect(second.resumed).toBe(false);
    store.sync.startWalk(second.runId, 'scopes');
    page(second.runId, 'scopes', [scope('a', { description: 'changed' })], 'tok-2');
    // The process dies here. Nothing is deleted, the change is visible, the snapshot of r1 is intact.
    expect(store.runs()[0]).toMatchObject({ id: second.runId, status: 'running' });
    expect(store.listObjects('scopes').rows.map((o) => o.id)).toEqual(['a', 'b', 'c']);
    expect(store.getObject('scopes', 'a', { asOfRun: r1 })!.columns).toMatchObject({ state: 'XAA_SCOPE_STATE_ENABLED' });
    const status = store.collectionStatus().find((s) => s.collection === 'scopes')!;
    expect(status).toMatchObject({ lastCompletedRunId: r1, complete: false, interrupted: true, objectCount: 3 });

    const resumed = store.sync.beginRun(['scopes']);
    expect(resumed.resumed).toBe(true);
    expect(resumed.runId).toBe(second.runId);
    expect(resumed.walks[0]).toMatchObject({ collection: 'scopes', checkpoint: 'tok-2', pages: 1, fetched: 1 });
    store.sync.startWalk(resumed.runId, 'scopes');
    const last = page(resumed.runId, 'scopes', [scope('c')]);
    expect(last).toEqual({ upserted: 0, deleted: 1, completed: true });
    expect(store.sync.finishRun(resumed.runId)).toBe('completed');
    expect(store.listObjects('scopes').rows.map((o) => o.id)).toEqual(['a', 'c']);
    expect(store.collectionStatus().find((s) => s.collection === 'scopes')).toMatchObject({
      lastCompletedRunId: second.runId,
      complete: true,
      interrupted: false,
      objectCount: 2,
    });
  });

  it('stores pages taken together in one transaction, each as if stored alone, or none of them', () => {
    run('scopes', [[scope('a'), scope('b')]]);
    const { runId } = store.sync.beginRun(['scopes']);
    store.sync.startWalk(runId, 'scopes');
    const { walk } = store.sync.walk(runId, 'scopes');
    const d = collection('scopes');
    const prepared = (raw: string) => prepareObject(d, { raw, json: JSON.parse(raw) });
    const b = store.sync.currentHashes('scopes', ['b']).get('b')!;
    const now = new Date().toISOString();
    const commit = (pages: PageToStore[]) => store.sync.commitPages(runId, 'scopes', walk, pages, now);
    // `a` changed, and again by the time the second page listed it; `new` is on both pages.
    const stored = commit([
      { objects: [prepared(scope('a', { description: 'v2' })), prepared(scope('new'))], next: 't1' },
      { objects: [prepared(scope('a', { description: 'v3' })), prepared(scope('new'))], next: 't2' },
    ]);
    expect(stored).toEqual({ upserted: 3, deleted: 0, completed: false });
    expect(store.sync.walk(runId, 'scopes')).toMatchObject({ checkpoint: 't2', pages: 2, fetched: 4 });
    // One version per run: the later copy is it.
    expect(store.history('scopes', 'a').map((h) => h.change)).toEqual(['added', 'modified']);
    expect(store.getObject('scopes', 'a')!.json).toMatchObject({ description: 'v3' });
    expect(store.history('scopes', 'new')).toHaveLength(1);

    // A page that fails (an unchanged object whose stored version moved) takes the pages before it back too.
    const failing = () =>
      commit([
        { objects: [prepared(scope('c'))], next: 't3' },
        { objects: [{ id: 'b', unchanged: { oid: b.oid, vid: b.vid + 1_000 } }], next: 't4' },
      ]);
    expect(failing).toThrow('stored objects changed while a page was being stored');
    expect(store.getObject('scopes', 'c')).toBeNull();
    expect(store.sync.walk(runId, 'scopes')).toMatchObject({ checkpoint: 't2', pages: 2, fetched: 4 });
    // Only the last page may end the walk.
    const endedEarly = () =>
      commit([
        { objects: [prepared(scope('c'))], next: '' },
        { objects: [], next: 't5' },
      ]);
    expect(endedEarly).toThrow('pages were stored after the last one');
    expect(store.getObject('scopes', 'c')).toBeNull();

    const last = commit([
      { objects: [{ id: 'b', unchanged: { oid: b.oid, vid: b.vid } }], next: 't3' },
      { objects: [], next: '' },
    ]);
    expect(last).toEqual({ upserted: 0, deleted: 0, completed: true });
    expect(store.sync.finishRun(runId)).toBe('completed');
    expect(store.listObjects('scopes').rows.map((o) => o.id)).toEqual(['a', 'b', 'new']);
  });

  it('a first walk of a collection finds what it stored itself: an object on two commits, a commit that rolled back', () => {
    // Nothing of scopes is stored yet: the writer looks up only the ids it stored in this walk.
    const { runId } = store.sync.beginRun(['scopes']);
    store.sync.startWalk(runId, 'scopes');
    const { walk } = store.sync.walk(runId, 'scopes');
    const d = collection('scopes');
    const prepared = (raw: string) => prepareObject(d, { raw, json: JSON.parse(raw) });
    const commit = (pages: PageToStore[], w = walk) => store.sync.commitPages(runId, 'scopes', w, pages, 'now');
    expect(commit([{ objects: [prepared(scope('a')), prepared(scope('b'))], next: 't1' }])).toMatchObject({ upserted: 2 });
    // `a` again, changed, in a later commit: one version per run, rewritten; `c` is new.
    expect(commit([{ objects: [prepared(scope('a', { description: 'v2' })), prepared(scope('c'))], next: 't2' }])).toMatchObject({
      upserted: 2,
    });
    expect(store.history('scopes', 'a')).toHaveLength(1);
    expect(store.getObject('scopes', 'a')!.json).toMatchObject({ description: 'v2' });
    // A commit that rolls back (no such walk) leaves nothing; its objects stored next are new.
    expect(() => commit([{ objects: [prepared(scope('d'))], next: 't3' }], walk + 7)).toThrow(/no running walk/);
    expect(store.getObject('scopes', 'd')).toBeNull();
    expect(commit([{ objects: [prepared(scope('d')), prepared(scope('b', { description: 'v2' }))], next: '' }])).toEqual({
      upserted: 2,
      deleted: 0,
      completed: true,
    });
    expect(store.db.prepare("SELECT count(*) FROM objects WHERE collection = 'scopes'").pluck().get()).toBe(4);
    expect(store.history('scopes', 'b')).toHaveLength(1);
    expect(store.db.pragma('foreign_key_check')).toEqual([]);
    // The names are searchable by their keys once the walk completed.
    expect(store.db.prepare("SELECT count(*) FROM objects WHERE collection = 'scopes' AND name_key IS NOT NULL").pluck().get()).toBe(4);
  });

  it('a restarted walk re-sees objects; one it no longer sees leaves no version in that run', () => {
    run('scopes', [[scope('a')]]);
    const { runId } = store.sync.beginRun(['scopes']);
    store.sync.startWalk(runId, 'scopes');
    page(runId, 'scopes', [scope('a', { description: 'v2' }), scope('new')], 'tok');
    const walk = store.sync.restartWalk(runId, 'scopes');
    expect(walk).toBe(2);
    expect(store.sync.walk(runId, 'scopes').checkpoint).toBe('');
    // The second walk sees a (changed again) but not `new`.
    page(runId, 'scopes', [scope('a', { description: 'v3' })], '', walk);
    expect(store.sync.finishRun(runId)).toBe('completed');
    expect(store.getObject('scopes', 'a')!.json).toMatchObject({ description: 'v3' });
    expect(store.history('scopes', 'a').map((h) => h.change)).toEqual(['added', 'modified']);
    expect(store.getObject('scopes', 'new')).toBeNull();
    expect(store.db.prepare("SELECT count(*) FROM objects WHERE id = 'new'").pluck().get()).toBe(0);
  });

  it('finishes a run as failed when a walk failed, and resumes it next time', () => {
    const { runId } = store.sync.beginRun(['scopes', 'toolsets']);
    store.sync.startWalk(runId, 'toolsets');
    store.sync.completeWalk(runId, 'toolsets', 1);
    store.sync.startWalk(runId, 'scopes');
    store.sync.stopWalk(runId, 'scopes', 'failed', 'scopes: truncated page');
    expect(store.sync.finishRun(runId)).toBe('failed');
    expect(store.collectionStatus().find((s) => s.collection === 'scopes')).toMatchObject({
      error: 'scopes: truncated page',
      complete: false,
    });
    const again = store.sync.beginRun(['scopes', 'toolsets']);
    expect(again).toMatchObject({ runId, resumed: true });
    expect(again.walks.map((w) => [w.collection, w.status])).toEqual([
      ['scopes', 'failed'],
      ['toolsets', 'completed'],
    ]);
  });

  it('searches with prefixes, ranks names first, filters, pages and makes snippets', () => {
    run('scopes', [
      [
        scope('s1', {
          displayName: 'Payroll export',
          description: 'Exports payroll files',
          classification: 'XAA_SCOPE_CLASSIFICATION_SENSITIVE',
        }),
        scope('s2', { displayName: 'Calendar read', description: 'Reads the payroll calendar' }),
        scope('s3', { displayName: 'Déjà vu', description: 'Diacritics' }),
      ],
    ]);
    run('routing-rules', [
      [
        JSON.stringify({
          id: 'r1',
          displayName: 'Route payroll findings',
          condition: 'finding.app == "payroll-prod"',
          action: { suppress: { reason: 'noise' } },
        }),
      ],
    ]);
    const all = store.search('payr');
    expect(all.total).toBe(3);
    expect(all.hits[0]!.id).not.toBe('s2'); // a name match ranks above a body-only match
    expect(all.hits.map((h) => h.id).sort()).toEqual(['r1', 's1', 's2']);
    expect(
      store
        .search('payroll', { collection: 'scopes' })
        .hits.map((h) => h.id)
        .sort(),
    ).toEqual(['s1', 's2']);
    expect(
      store.search('payroll', { collection: 'scopes', filters: { classification: 'XAA_SCOPE_CLASSIFICATION_SENSITIVE' } }),
    ).toMatchObject({ total: 1, hits: [{ id: 's1' }] });
    expect(store.search('payroll', { collection: 'scopes', limit: 1, offset: 1 }).hits).toHaveLength(1);
    // Filters on non-facet columns (a join) and on several values of one facet.
    expect(store.search('payroll', { filters: { scopeValue: 'files:s2' } }).hits.map((h) => h.id)).toEqual(['s2']);
    expect(
      store.search('payroll', { filters: { classification: ['XAA_SCOPE_CLASSIFICATION_SENSITIVE', 'XAA_SCOPE_CLASSIFICATION_READ'] } })
        .total,
    ).toBe(2);
    expect(store.search('payroll', { filters: { enabled: false } }).hits.map((h) => h.id)).toEqual(['r1']);
    // Words never reach the facets: searching a collection's name or an enum value finds nothing extra.
    expect(store.search('collectionscopes').total).toBe(0);
    expect(store.search('payroll', { collection: 'scopes', sort: { column: 'scopeValue', dir: 'desc' } }).hits.map((h) => h.id)).toEqual([
      's2',
      's1',
    ]);
    expect(store.search('"payroll calendar"').hits.map((h) => h.id)).toEqual(['s2']);
    expect(store.search('deja').hits.map((h) => h.id)).toEqual(['s3']);
    expect(store.search('prod').hits.map((h) => h.id)).toEqual(['r1']); // CEL conditions are indexed
    const hit = store.search('calendar').hits[0]!;
    expect(hit.snippet).toContain('«');
    expect(hit.columns).toMatchObject({ scopeValue: 'files:s2' });
    // Operators and stray quotes are words, never query syntax.
    expect(store.search('payroll OR NOT "').total).toBe(0);
    expect(store.search('  ').total).toBe(0);
    expect(store.search('AND (*)').total).toBe(0);
  });

  it('gives automation triggers and steps as structured rows', () => {
    const automation = {
      id: 'a1',
      displayName: 'Offboard',
      triggers: [{ userProfileChange: { condition: 'subject.status == "TERMINATED"' } }],
      automationSteps: [
        {
          stepName: 's1',
          stepDisplayName: 'Email manager',
          sendEmail: { subject: 'Bye', userIdsCel: '[subject.manager_id]', userRefs: [{ id: 'u9' }] },
        },
        { stepName: 's2', createAccessReview: { accessReviewTemplateId: 'tmpl-1', campaignName: 'Exit review' } },
        { stepName: 's3', skipIfTrueCel: 'false', somethingNew: {} },
      ],
      draftTriggers: [{ schedule: { cronSpec: '0 0 * * *', condition: 'true' } }],
    };
    run('automations', [[JSON.stringify(automation)]]);
    const rows = store.automationRows();
    expect(rows.map((r) => [r.section, r.index, r.kind, r.name])).toEqual([
      ['trigger', 0, 'userProfileChange', 'userProfileChange'],
      ['step', 0, 'sendEmail', 'Email manager'],
      ['step', 1, 'createAccessReview', 's2'],
      ['step', 2, 'unknown', 's3'],
      ['draftTrigger', 0, 'schedule', 'schedule'],
    ]);
    expect(rows[0]!.celExpressions).toEqual([
      { path: 'triggers[0].userProfileChange.condition', expression: 'subject.status == "TERMINATED"' },
    ]);
    expect(rows[1]!.celExpressions).toEqual([{ path: 'automationSteps[0].sendEmail.userIdsCel', expression: '[subject.manager_id]' }]);
    expect(rows[1]!.targets).toEqual(['automationSteps[0].sendEmail.userRefs[0].id=u9']);
    expect(rows[2]!.targets).toEqual(['automationSteps[1].createAccessReview.accessReviewTemplateId=tmpl-1']);
    expect(store.automationRows({ automationId: 'a1' })).toHaveLength(5);
    expect(store.automationRows({ automationId: 'zz' })).toEqual([]);
    expect(store.getObject('automations', 'a1')!.columns).toMatchObject({
      triggerKinds: 'userProfileChange',
      stepKinds: 'sendEmail, createAccessReview, unknown',
      stepCount: 3,
      enabled: false,
    });
    // The template it names is gathered for the templates walk.
    expect(store.sync.referencedIds('templates', ['campaigns', 'automations'])).toEqual(['tmpl-1']);
  });

  it('opens read-only without changing the file', () => {
    run('scopes', [[scope('a')]]);
    const reader = openStore(store.file, { readonly: true });
    try {
      expect(reader.getObject('scopes', 'a')!.raw).toBe(scope('a'));
      expect(reader.search('files').total).toBe(1);
      expect(() => reader.sync).toThrow(/read-only/);
      expect(() => reader.db.exec('DELETE FROM objects')).toThrow(/readonly/);
    } finally {
      reader.close();
    }
    expect(() => openStore(join(dir, 'missing.sqlite'), { readonly: true })).toThrow();
  });
});
