import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/main/store/db';
import { countByCollection, searchObjects, wordsQuery, termLookup } from '../../src/main/store/search';
import { collection, prepareObject, type CollectionId } from '../../src/main/collections';

let dir: string;
let store: Store;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'attest-search-'));
  store = openStore(join(dir, 'store.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One completed run storing these objects (in this order: later ones are newer). */
function put(objects: [CollectionId, object][], refresh = true): void {
  const ids = [...new Set(objects.map(([c]) => c))];
  const { runId } = store.sync.beginRun(ids);
  for (const c of ids) {
    store.sync.startWalk(runId, c);
    const prepared = objects
      .filter(([x]) => x === c)
      .map(([, o]) => {
        const raw = JSON.stringify(o);
        return prepareObject(collection(c), { raw, json: JSON.parse(raw) });
      });
    store.sync.commitPage(runId, c, 1, prepared, '', new Date().toISOString());
  }
  store.sync.finishRun(runId);
  if (refresh) store.sync.refreshSearchTerms();
}

const scope = (id: string, displayName: string, description: string, fields: object = {}) =>
  [
    'scopes',
    {
      id,
      displayName,
      description,
      scopeValue: `v:${id}`,
      state: 'XAA_SCOPE_STATE_ENABLED',
      classification: 'XAA_SCOPE_CLASSIFICATION_READ',
      ...fields,
    },
  ] as [CollectionId, object];

describe('store search', () => {
  it('expands a typed prefix into the indexed words it starts, and still finds words indexed since', () => {
    put([scope('s1', 'Payroll export', 'payrolls and payrollers'), scope('s2', 'Ledger', 'nothing here')]);
    expect(wordsQuery('payro', termLookup(store.db))!.match).toBe('("payro" OR "payroll" OR "payrollers" OR "payrolls")');
    expect(wordsQuery('pay', termLookup(store.db))!.match).toBe('"pay"*'); // short: FTS5's prefix index
    expect(store.search('payro').hits.map((h) => h.id)).toEqual(['s1']);
    // Stored after the last refresh of the word list: found whole and by prefix all the same.
    put([scope('s3', 'Payslips', 'monthly payslips')], false);
    expect(store.search('payslips').hits.map((h) => h.id)).toEqual(['s3']);
    expect(store.search('paysl').hits.map((h) => h.id)).toEqual(['s3']);
    expect(store.search('Déjà').total).toBe(0);
  });

  it('expands a one-letter prefix (no prefix index) into its words, or into its two-letter prefixes when it starts too many', () => {
    const objects: [CollectionId, object][] = [scope('k', 'K', 'just k')];
    // 70 distinct words starting with k (more than a prefix is expanded into), two with q.
    for (let i = 0; i < 70; i += 1)
      objects.push(scope(`w${i}`, `Thing ${i}`, `${i % 2 ? 'kappa' : 'kilo'}${i} and ${i % 7 === 0 ? 'k9' : 'other'}`));
    objects.push(scope('z1', 'Quota', 'quartz'), scope('z2', 'Nothing', 'none'));
    put(objects);
    const terms = termLookup(store.db);
    expect(wordsQuery('q', terms)!.match).toBe('("q" OR "quartz" OR "quota")');
    expect(wordsQuery('K', terms)!.match).toBe('("K" OR "k9"* OR "ka"* OR "ki"*)');
    // The same matches as FTS5's own prefix query.
    const fts = (match: string) =>
      store.db.prepare('SELECT rowid FROM search_index WHERE search_index MATCH ? ORDER BY rowid').pluck().all(match);
    expect(fts(wordsQuery('k', terms)!.match)).toEqual(fts('"k"*'));
    expect(fts(wordsQuery('q', terms)!.match)).toEqual(fts('"q"*'));
    expect(store.search('k', { limit: 500 }).total).toBe(71);
    expect(
      store
        .search('k k9', { limit: 500 })
        .hits.map((h) => h.id)
        .sort(),
    ).toEqual(['w0', 'w14', 'w21', 'w28', 'w35', 'w42', 'w49', 'w56', 'w63', 'w7']);
    expect(store.search('q').hits.map((h) => h.id)).toEqual(['z1']);
  });

  it('counts matches per collection, each up to the count cap', () => {
    const objects: [CollectionId, object][] = [];
    for (let i = 0; i < 7; i += 1) objects.push(scope(`s${i}`, `Alpha ${i}`, 'x'));
    objects.push(['toolsets', { id: 't1', displayName: 'Alpha tools' }], ['toolsets', { id: 't2', displayName: 'Beta tools' }]);
    put(objects);
    const limits = { countCap: 5, rankWindow: 5, bm25Budget: 0 };
    expect(countByCollection(store.db, 'alp', limits)).toEqual({ scopes: 5, toolsets: 1 });
    expect(countByCollection(store.db, 'a')).toEqual({ scopes: 7, toolsets: 1 });
    expect(countByCollection(store.db, 'tools')).toEqual({ toolsets: 2 });
    expect(countByCollection(store.db, '  ')).toEqual({});
  });

  it('writes search entries in batches, and after a crash indexes what was stored but not yet indexed', () => {
    const { runId } = store.sync.beginRun(['scopes']);
    store.sync.startWalk(runId, 'scopes');
    const page = (ids: string[], next: string) =>
      store.sync.commitPage(
        runId,
        'scopes',
        1,
        ids.map((id) => {
          const raw = JSON.stringify({ id, displayName: `Quartz ${id}`, scopeValue: `q:${id}` });
          return prepareObject(collection('scopes'), { raw, json: JSON.parse(raw) });
        }),
        next,
        'now',
      );
    page(['q1', 'q2'], 'next');
    // Stored and queued, not yet in the index.
    expect(store.getObject('scopes', 'q1')).not.toBeNull();
    expect(store.sync.searchBacklog).toBe(2);
    expect(store.db.prepare('SELECT count(*) FROM search_queue').pluck().get()).toBe(2);
    expect(store.search('quartz').total).toBe(0);
    // The names' keys are written with the search entries.
    const nameKeyOf = (id: string) =>
      store.db.prepare("SELECT name_key FROM objects WHERE collection = 'scopes' AND id = ?").pluck().get(id);
    expect(nameKeyOf('q1')).toBeNull();
    store.sync.flushSearch();
    expect(store.search('quartz').total).toBe(2);
    expect(nameKeyOf('q1')).toBe('quartz q1');
    expect(store.db.prepare('SELECT count(*) FROM search_queue').pluck().get()).toBe(0);
    // The process dies after the next page: its entries are only in the queue.
    page(['q3'], 'next-2');
    store.close();
    store = openStore(join(dir, 'store.sqlite'));
    expect(
      store
        .search('quartz')
        .hits.map((h) => h.id)
        .sort(),
    ).toEqual(['q1', 'q2', 'q3']);
    expect(store.db.prepare("SELECT name_key FROM objects WHERE id = 'q3'").pluck().get()).toBe('quartz q3');
    expect(store.db.prepare('SELECT count(*) FROM search_queue').pluck().get()).toBe(0);
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('forgets the search entries of a page that rolled back', () => {
    const { runId } = store.sync.beginRun(['scopes']);
    store.sync.startWalk(runId, 'scopes');
    const scopeNamed = (id: string, displayName: string) => {
      const raw = JSON.stringify({ id, displayName });
      return prepareObject(collection('scopes'), { raw, json: JSON.parse(raw) });
    };
    expect(() =>
      store.sync.commitPage(runId, 'scopes', 99, [scopeNamed('r1', 'Rollback'), scopeNamed('r2', 'Rollback too')], '', 'now'),
    ).toThrow(/no running walk 99/);
    expect(store.sync.searchBacklog).toBe(0);
    expect(store.getObject('scopes', 'r1')).toBeNull();
    // The next page queues its own entry only: nothing of the rolled back page is noted with it.
    store.sync.commitPage(runId, 'scopes', 1, [scopeNamed('r3', 'Kept')], 'next', 'now');
    expect(store.db.prepare('SELECT count(*) FROM search_queue').pluck().get()).toBe(1);
    store.sync.flushSearch();
    expect(store.search('rollback').total).toBe(0);
    expect(store.search('kept').hits.map((h) => h.id)).toEqual(['r3']);
  });

  it('keeps facet tokens out of reach of typed words, and filters on them', () => {
    put([
      scope('s1', 'Alpha', 'one'),
      scope('s2', 'Beta', 'two', { classification: 'XAA_SCOPE_CLASSIFICATION_DANGEROUS' }),
      ['toolsets', { id: 't1', displayName: 'Alpha tools' }],
    ]);
    // The facet tokens themselves (the values are searched by their words: see the next test).
    for (const q of ['collection', 'scopes', 'classification', 'collectionscopes', 'classificationxaascopeclassificationdangerous'])
      expect(store.search(q).total, q).toBe(0);
    expect(store.search('alpha').total).toBe(2);
    expect(store.search('alpha', { collection: 'toolsets' }).hits.map((h) => h.id)).toEqual(['t1']);
    expect(store.search('beta', { filters: { classification: 'XAA_SCOPE_CLASSIFICATION_DANGEROUS' } }).hits.map((h) => h.id)).toEqual([
      's2',
    ]);
    expect(store.search('alpha', { filters: { classification: 'XAA_SCOPE_CLASSIFICATION_DANGEROUS' } }).total).toBe(0);
  });

  it('finds enum values by their labels and raw names, and true booleans by their column label', () => {
    put([
      scope('s1', 'Alpha', 'one'),
      scope('s2', 'Beta', 'two', { classification: 'XAA_SCOPE_CLASSIFICATION_DANGEROUS', state: 'XAA_SCOPE_STATE_PENDING_REVIEW' }),
      scope('s3', 'Gamma', 'three', { classification: 'XAA_SCOPE_CLASSIFICATION_RADIOACTIVE', state: 'SOMETHING_ELSE' }),
      ['automations', { id: 'a1', displayName: 'Nightly', enabled: true, primaryTriggerType: 'TRIGGER_TYPE_SCHEDULE_APP_USER' }],
      ['automations', { id: 'a2', displayName: 'Hourly', enabled: false, primaryTriggerType: 'TRIGGER_TYPE_SCHEDULE' }],
      ['automations', { id: 'a3', displayName: 'On grant', primaryTriggerType: 'TRIGGER_TYPE_GRANT_FOUND', isDraft: true }],
      ['routing-rules', { id: 'r1', displayName: 'Quiet', action: { acceptRisk: {} } }],
      ['toolsets', { id: 't1', displayName: 'Dangerous tools' }],
    ]);
    const ids = (q: string, opts = {}) =>
      store
        .search(q, opts)
        .hits.map((h) => h.id)
        .sort();
    expect(ids('dangerous', { collection: 'scopes' })).toEqual(['s2']);
    expect(ids('Pending review')).toEqual(['s2']);
    expect(ids('XAA_SCOPE_CLASSIFICATION_DANGEROUS')).toEqual(['s2']);
    expect(ids('xaa_scope_state_pending')).toEqual(['s2']); // a raw name's beginning, as it is typed
    expect(ids('XAA_SCOPE_STATE_ENABLED')).toEqual(['s1']);
    // Scopes whose state is Enabled, and the automation that is enabled (not the one that is not).
    expect(ids('enabled')).toEqual(['a1', 's1']);
    expect(ids('schedule')).toEqual(['a1', 'a2']);
    expect(ids('TRIGGER_TYPE_SCHEDULE')).toEqual(['a1', 'a2']); // a prefix, like every typed word
    expect(ids('"schedule app user"')).toEqual(['a1']);
    expect(ids('draft')).toEqual(['a3']);
    expect(ids('grant found')).toEqual(['a3']);
    expect(ids('accept risk')).toEqual(['r1']);
    expect(ids('acceptRisk')).toEqual(['r1']);
    // Unknown values: by their name past the enumeration's prefix, and as written.
    expect(ids('radioactive')).toEqual(['s3']);
    expect(ids('SOMETHING_ELSE')).toEqual(['s3']);
    // Filters and words together; a name match ranks above a match in a value alone.
    expect(ids('enabled', { collection: 'scopes' })).toEqual(['s1']);
    expect(ids('schedule', { filters: { enabled: true } })).toEqual(['a1']);
    expect(store.search('dangerous').hits.map((h) => h.id)).toEqual(['t1', 's2']);
  });

  it('ranks by bm25 when the words are selective, names first', () => {
    put([
      scope('s1', 'Ledger', 'mentions vault once'),
      scope('s2', 'Vault keys', 'rotation of vault keys'),
      scope('s3', 'Other', 'nothing'),
    ]);
    const result = store.search('vault');
    expect(result).toMatchObject({ total: 2, capped: false, order: 'bm25' });
    expect(result.hits.map((h) => h.id)).toEqual(['s2', 's1']);
    expect(result.hits[0]!.rank).toBeLessThan(result.hits[1]!.rank);
    expect(result.hits[1]!.snippet).toContain('mentions «vault» once');
  });

  it('ranks a name equal to the query first (case aside), then names starting with it, then the rest, in every order but a column', () => {
    const objects: [CollectionId, object][] = [
      scope('p120', 'AWS Production 120', 'aws production 12 aws production 12'),
      scope('exact', 'aws production 12', 'the app'),
      scope('p12x', 'AWS Production 12 backup', 'aws production 12'),
      scope('body', 'Ledger', 'AWS Production 12 AWS Production 12 AWS Production 12'),
      scope('other', 'AWS Production 1', 'aws production 12'),
    ];
    put(objects);
    for (const limits of [undefined, { countCap: 10, rankWindow: 2, bm25Budget: 0 }]) {
      const result = searchObjects(store.db, 'AWS Production 12', {}, limits);
      expect(result.hits.map((h) => h.id).slice(0, 3), result.order).toEqual(['exact', 'p120', 'p12x']);
      expect(result.hits.map((h) => h.id).sort()).toEqual(['body', 'exact', 'other', 'p120', 'p12x']);
      // Pages go on where the leading names end.
      const pages = [0, 2, 4].flatMap((offset) =>
        searchObjects(store.db, 'AWS Production 12', { limit: 2, offset }, limits).hits.map((h) => h.id),
      );
      expect(pages).toEqual(result.hits.map((h) => h.id));
    }
    expect(searchObjects(store.db, 'aws production 12', { sort: { column: 'scopeValue', dir: 'asc' } }).order).toBe('column');
    // A one-letter last word finds the name equal to the query first (names it starts are not looked up).
    expect(searchObjects(store.db, 'aws production 1').hits[0]!.id).toBe('other');
  });

  it('on broad queries counts up to a cap and orders names first, then newest first', () => {
    const objects: [CollectionId, object][] = [];
    for (let i = 0; i < 8; i += 1)
      objects.push(i % 3 === 0 ? scope(`n${i}`, `Access ${i}`, 'named') : scope(`b${i}`, `Thing ${i}`, 'body says access'));
    put(objects);
    const limits = { countCap: 5, rankWindow: 4, bm25Budget: 0 };
    const first = searchObjects(store.db, 'access', { limit: 4 }, limits);
    expect(first).toMatchObject({ total: 5, capped: true, order: 'names-first' });
    // Names (n6, n3, n0: each starts with the query, as long, newest first), then the rest newest first.
    expect(first.hits.map((h) => h.id)).toEqual(['n6', 'n3', 'n0', 'b7']);
    expect(first.hits.map((h) => h.rank)).toEqual([...first.hits.map((h) => h.rank)].sort((a, b) => a - b));
    const next = searchObjects(store.db, 'access', { limit: 4, offset: 4 }, limits);
    expect(next.hits.map((h) => h.id)).toEqual(['b5', 'b4', 'b2', 'b1']);
    expect(next.hits[0]!.snippet).toContain('body says «access»');
    expect(searchObjects(store.db, 'access', { limit: 2, offset: 2 }, limits).hits.map((h) => h.id)).toEqual(['n0', 'b7']);
    // Sorting by a column sorts the newest rank-window matches.
    const sorted = searchObjects(store.db, 'access', { sort: { column: 'scopeValue', dir: 'asc' } }, limits);
    expect(sorted.order).toBe('column');
    expect(sorted.hits.map((h) => h.id)).toEqual(['b4', 'b5', 'b7', 'n6']);
  });

  it('filters on other columns through the objects, with the same ordering rules', () => {
    put([
      scope('s1', 'Alpha', 'x', { appId: 'app-1' }),
      scope('s2', 'Alpha', 'x', { appId: 'app-2' }),
      scope('s3', 'Alpha', 'x', { appId: 'app-1' }),
    ]);
    expect(
      store
        .search('alpha', { filters: { appId: 'app-1' } })
        .hits.map((h) => h.id)
        .sort(),
    ).toEqual(['s1', 's3']);
    const broad = searchObjects(store.db, 'alpha', { filters: { appId: 'app-1' } }, { countCap: 1, rankWindow: 1, bm25Budget: 0 });
    // The total stops at the cap; the hits go on (newest first).
    expect(broad).toMatchObject({ total: 1, capped: true, order: 'names-first' });
    expect(broad.hits.map((h) => h.id)).toEqual(['s3', 's1']);
  });

  it('is warmed once the store is open: the keystrokes after prepare no statement, and answer as before', () => {
    put([
      scope('s1', 'Payroll export', 'payrolls and payrollers'),
      scope('s2', 'Ledger', 'pays nothing'),
      scope('s3', 'Okta admin', 'owners'),
    ]);
    const typed = ['p', 'pa', 'pay', 'payro', 'o', 'okta'];
    const cold = typed.map((q) => [store.search(q, { limit: 50 }), countByCollection(store.db, q)]);
    store.close();
    store = openStore(join(dir, 'store.sqlite'));
    store.warmSearch();
    const prepare = store.db.prepare.bind(store.db);
    let prepared = 0;
    store.db.prepare = ((sql: string) => {
      prepared += 1;
      return prepare(sql);
    }) as typeof store.db.prepare;
    const warm = typed.map((q) => [store.search(q, { limit: 50 }), countByCollection(store.db, q)]);
    expect(warm).toEqual(cold);
    // One-letter, short and expanded prefixes alike: every statement was ready, or made once and kept.
    const again = typed.map((q) => [store.search(q, { limit: 50 }), countByCollection(store.db, q)]);
    const afterFirstPass = prepared;
    typed.forEach((q) => store.search(q, { limit: 50 }));
    expect(prepared).toBe(afterFirstPass);
    expect(again).toEqual(cold);
  });
});
