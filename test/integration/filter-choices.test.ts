/**
 * A filter's box looks typed text up in the whole store: a real SQLite store whose scopes are on
 * more apps than a filter lists (500), one app rare enough to be left out of that list, found by
 * part of its id and by part of its name; enum values by their labels; through the contract too.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type BrowserHost } from '../../src/main/browser-host/server';
import { collectionInfos } from '../../src/main/rpc/read-models';
import { openStore, type Store } from '../../src/main/store/db';
import { matchingColumnValues } from '../../src/main/store/filter-choices';
import type { ChannelResult } from '../../src/shared/contract';
import { storeRun } from '../helpers/report-fixtures';

/** Apps holding two scopes each: more than a filter lists. */
const APPS = 600;
const RARE = { id: 'app_rare_7f3', displayName: 'Zebra Payroll' };

let dir: string;
let store: Store;
let host: BrowserHost;

const appId = (i: number) => `app_${String(i).padStart(3, '0')}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'attest-filter-choices-'));
  const storeFile = join(dir, 'store.sqlite');
  const classifications = ['XAA_SCOPE_CLASSIFICATION_READ', 'XAA_SCOPE_CLASSIFICATION_DANGEROUS', 'XAA_SCOPE_CLASSIFICATION_QUANTUM'];
  const scopes = Array.from({ length: APPS * 2 }, (_, i) => ({
    id: `xs_${i}`,
    displayName: `Scope ${i}`,
    scopeValue: `scope:${i}`,
    appId: appId(i % APPS),
    xaaResourceServerId: `rs_${i % APPS}`,
    classification: classifications[i % 3],
  }));
  scopes.push({ ...scopes[0]!, id: 'xs_rare', appId: RARE.id, xaaResourceServerId: 'rs_rare' });
  const seeded = openStore(storeFile);
  try {
    storeRun(seeded, {
      scopes,
      apps: [...Array.from({ length: APPS }, (_, i) => ({ id: appId(i), displayName: `Application ${i}` })), RARE],
      'routing-rules': [
        { id: 'rr_1', displayName: 'Accept', action: { acceptRisk: { reason: 'known' } } },
        { id: 'rr_2', displayName: 'Escalate', action: { escalateToCiso: { pager: true } } },
      ],
    });
  } finally {
    seeded.close();
  }
  store = openStore(storeFile, { readonly: true });
  const renderer = join(dir, 'renderer');
  mkdirSync(renderer, { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Attest</title>');
  host = await startBrowserHost({ rendererRoot: renderer, dataDir: join(dir, 'data'), storeFile });
});

afterAll(async () => {
  await host?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a filter's values matching typed text, from the whole store", () => {
  it('the rare app is not among the 500 a filter lists, yet found by part of its id and part of its name', () => {
    const info = collectionInfos(store).find((c) => c.id === 'scopes')!;
    expect(info.filterValues.appId).toHaveLength(500);
    expect(info.filterValues.appId).not.toContain(RARE.id);
    expect(info.filterTotals?.appId).toBe(APPS + 1);

    expect(matchingColumnValues(store, 'scopes', 'appId', 'RARE_7', 200)).toEqual({ values: [{ value: RARE.id, count: 1 }], total: 1 });
    expect(matchingColumnValues(store, 'scopes', 'appId', 'zebra pay', 200)).toEqual({ values: [{ value: RARE.id, count: 1 }], total: 1 });
    // By name: "Application 59" is apps 59 and 590 to 599.
    const byName = matchingColumnValues(store, 'scopes', 'appId', 'Application 59', 200);
    expect(byName.values.map((v) => v.value).sort()).toEqual([59, ...Array.from({ length: 10 }, (_, i) => 590 + i)].map(appId).sort());
    // A column whose ids point at nothing synced: by its text only.
    expect(matchingColumnValues(store, 'scopes', 'xaaResourceServerId', 'rare', 200).values).toEqual([{ value: 'rs_rare', count: 1 }]);
  });

  it('at most the limit, most frequent first, with how many match in all; wildcards are literal', () => {
    const many = matchingColumnValues(store, 'scopes', 'appId', 'app_', 200);
    expect(many.total).toBe(APPS + 1);
    expect(many.values).toHaveLength(200);
    expect(many.values.every((v) => v.count === 2)).toBe(true);
    const all = matchingColumnValues(store, 'scopes', 'appId', '', 1000);
    expect(all.values.at(-1)).toEqual({ value: RARE.id, count: 1 });
    expect(matchingColumnValues(store, 'scopes', 'appId', '%', 200)).toEqual({ values: [], total: 0 });
    expect(matchingColumnValues(store, 'scopes', 'appId', 'app_5_', 200).total).toBe(0);
    expect(() => matchingColumnValues(store, 'scopes', 'nonsense', 'x', 10)).toThrow(/unknown column 'nonsense' in scopes/);
  });

  it('enum values by their labels, an unknown one by its text; a oneof kind by its words', () => {
    expect(matchingColumnValues(store, 'scopes', 'classification', 'danger', 200).values.map((v) => v.value)).toEqual([
      'XAA_SCOPE_CLASSIFICATION_DANGEROUS',
    ]);
    expect(matchingColumnValues(store, 'scopes', 'classification', 'quantum', 200).values.map((v) => v.value)).toEqual([
      'XAA_SCOPE_CLASSIFICATION_QUANTUM',
    ]);
    expect(matchingColumnValues(store, 'routing-rules', 'actionKind', 'accept risk', 200).values.map((v) => v.value)).toEqual([
      'acceptRisk',
    ]);
    expect(matchingColumnValues(store, 'routing-rules', 'actionKind', 'ciso', 200).values.map((v) => v.value)).toEqual(['escalateToCiso']);
  });

  it('through the contract: the matches with the names of the apps, and a refused column said clearly', async () => {
    const post = async (args: unknown) => {
      const response = await fetch(`${host.origin}/rpc/filterChoices`, {
        method: 'POST',
        headers: { origin: host.origin, 'content-type': 'application/json', 'x-attest-token': host.token },
        body: JSON.stringify(args),
      });
      return (await response.json()) as { ok: boolean; value?: ChannelResult<'filterChoices'>; error?: { code: string; message: string } };
    };
    const found = await post({ collection: 'scopes', column: 'appId', text: 'zebra' });
    expect(found).toEqual({ ok: true, value: { choices: [{ value: RARE.id, count: 1, name: RARE.displayName }], total: 1 } });
    const capped = await post({ collection: 'scopes', column: 'appId', text: 'Application' });
    expect(capped.value?.choices).toHaveLength(200);
    expect(capped.value?.total).toBe(APPS);
    const refused = await post({ collection: 'scopes', column: 'nonsense', text: 'x' });
    expect(refused.ok).toBe(false);
    expect(refused.error?.message).toMatch(/unknown column 'nonsense'/);
  });
});
