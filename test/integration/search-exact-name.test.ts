/**
 * Search on a synced reference tenant: an object named exactly what was typed comes first, then the
 * names that start with it, then the rest, however many other objects mention the words.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/db';
import { searchObjects } from '../../src/main/store/search';
import type { App } from '../../src/tenant/dataset';
import { useSyncedTenant } from './synced-tenant';

interface Hit {
  collection: string;
  id: string;
  title: string;
}

describe('search ranks an exact name match first', () => {
  const synced = useSyncedTenant({ seed: 67, name: 'exact' });
  let wanted = '';

  beforeAll(async () => {
    // 150 more apps named "AWS Production N", whose names and descriptions all mention "AWS Production 12…".
    const data = synced.tenant().data;
    const model = [...data.apps.values()][1]!;
    for (let n = 2; n <= 151; n += 1) {
      const app: App = {
        ...model,
        id: data.newId(),
        displayName: `AWS Production ${n}`,
        description: `AWS Production ${n}, like AWS Production 12`,
      };
      data.apps.set(app.id, app);
      if (n === 12) wanted = app.id;
    }
    const sync = await synced.cli('sync');
    expect(sync.code, sync.err).toBe(0);
  }, 120_000);

  it('"AWS Production 12" lists that app first, then the apps whose name starts with it, in the CLI and on every page', async () => {
    const search = async (query: string, ...more: string[]) => {
      const result = await synced.cli('search', query, '--json', ...more);
      expect(result.code, result.err).toBe(0);
      return JSON.parse(result.out) as { total: number; hits: Hit[] };
    };
    const { hits, total } = await search('AWS Production 12', '--limit', '13');
    expect(total).toBeGreaterThan(100);
    expect(hits[0]).toMatchObject({ collection: 'apps', id: wanted, title: 'AWS Production 12' });
    // AWS Production 120 … 129: each starts with the query.
    expect(
      hits
        .slice(1, 11)
        .map((h) => h.title)
        .sort(),
    ).toEqual(Array.from({ length: 10 }, (_, i) => `AWS Production 12${i}`));
    // Case aside, and the next page goes on after the leading names.
    expect((await search('aws production 12', '--limit', '1')).hits[0]!.id).toBe(wanted);
    const page = await search('AWS Production 12', '--limit', '5', '--offset', '10');
    expect(page.hits.map((h) => h.id)).toEqual((await search('AWS Production 12', '--limit', '15')).hits.slice(10).map((h) => h.id));
    // Only one collection: the same order.
    expect((await search('AWS Production 12', '--collection', 'apps', '--limit', '1')).hits[0]!.id).toBe(wanted);
  });

  it('the same when the query is too broad for bm25 (names first, newest first): the exact name still leads', () => {
    const stores = readdirSync(synced.dataDir(), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.sqlite'));
    expect(stores).toHaveLength(1);
    const store = openStore(join(synced.dataDir(), stores[0]!), { readonly: true });
    try {
      // The ten apps named "AWS Production 12x" are newer than the one named exactly so.
      const broad = { countCap: 10_000, rankWindow: 5, bm25Budget: 0 };
      const result = searchObjects(store.db, 'AWS Production 12', { limit: 13 }, broad);
      expect(result.order).toBe('names-first');
      expect(result.hits[0]).toMatchObject({ id: wanted, title: 'AWS Production 12' });
      expect(result.hits.slice(1, 11).every((h) => h.title.startsWith('AWS Production 12'))).toBe(true);
    } finally {
      store.close();
    }
  });

  it('follows a rename: after the next sync the new name leads (accents and case aside), and the old one no longer names it', async () => {
    const data = synced.tenant().data;
    data.apps.set(wanted, { ...data.apps.get(wanted)!, displayName: 'Zürich Ledger' });
    const sync = await synced.cli('sync');
    expect(sync.code, sync.err).toBe(0);
    const first = async (query: string) => {
      const result = await synced.cli('search', query, '--json', '--limit', '3');
      expect(result.code, result.err).toBe(0);
      return (JSON.parse(result.out) as { hits: Hit[] }).hits[0];
    };
    expect(await first('zurich ledger')).toMatchObject({ id: wanted, title: 'Zürich Ledger' });
    expect((await first('AWS Production 12'))?.id).not.toBe(wanted);
  });
});
