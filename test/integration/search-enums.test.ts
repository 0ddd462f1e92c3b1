/**
 * Search over enum values, through the CLI on a store synced from the reference tenant (demo
 * scale): `attest search dangerous` finds exactly the scopes the store holds as classified
 * dangerous, the raw name finds the same, and `--filter` narrows words to a value.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/main/api/client';
import { openStore, type Store } from '../../src/main/store/db';
import { syncTenant } from '../../src/main/sync/engine';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { runCli, tempDir } from './sync.helpers';

interface Printed {
  total: number;
  capped: boolean;
  hits: { collection: string; id: string; columns: Record<string, unknown> }[];
}

describe('attest search over enum values', () => {
  let tenant: ReferenceTenant;
  let tmp: ReturnType<typeof tempDir>;
  let store: Store;

  beforeAll(async () => {
    tenant = await startTenant({ port: 0, seed: 7 });
    tmp = tempDir();
    store = openStore(join(tmp.dir, 'store.sqlite'));
    const api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
    expect((await syncTenant({ store, api })).status).toBe('completed');
  });
  afterAll(async () => {
    store?.close();
    await tenant?.close();
    tmp?.remove();
  });

  const search = async (...args: string[]): Promise<Printed> => {
    const result = await runCli(['search', ...args, '--store', store.file, '--limit', '1000', '--json']);
    expect(result.code, result.err).toBe(0);
    return JSON.parse(result.out) as Printed;
  };
  /** Ids of the current objects of a collection with this column value, read from the store's list. */
  const idsWith = (collection: 'scopes' | 'automations', column: string, value: string | boolean) =>
    store
      .listObjects(collection, { filters: { [column]: value }, limit: 10_000 })
      .rows.map((o) => o.id)
      .sort();

  it('finds exactly the scopes classified dangerous, by the label and by the raw name', async () => {
    const dangerous = idsWith('scopes', 'classification', 'XAA_SCOPE_CLASSIFICATION_DANGEROUS');
    expect(dangerous.length).toBeGreaterThan(0);
    for (const query of ['dangerous', 'Dangerous', 'XAA_SCOPE_CLASSIFICATION_DANGEROUS']) {
      const found = await search(query);
      expect(found.total, query).toBe(dangerous.length);
      expect(found.hits.map((h) => `${h.collection}/${h.id}`).sort(), query).toEqual(dangerous.map((id) => `scopes/${id}`));
    }
  });

  it('finds enabled objects and scheduled triggers, and filters words by a value', async () => {
    const enabledScopes = idsWith('scopes', 'state', 'XAA_SCOPE_STATE_ENABLED');
    const enabledAutomations = idsWith('automations', 'enabled', true);
    expect(enabledScopes.length).toBeGreaterThan(0);
    expect((await search('enabled', '--collection', 'scopes')).hits.map((h) => h.id).sort()).toEqual(enabledScopes);
    const automations = await search('enabled', '--collection', 'automations');
    expect(automations.hits.map((h) => h.id).sort()).toEqual(enabledAutomations);

    const scheduled = store
      .listObjects('automations', { limit: 10_000 })
      // Any of its trigger types (primary, every live and draft trigger).
      .rows.filter((o) =>
        String(o.columns.triggerType ?? '')
          .split(', ')
          .some((t) => t.startsWith('TRIGGER_TYPE_SCHEDULE')),
      )
      .map((o) => o.id)
      .sort();
    expect(scheduled.length).toBeGreaterThan(0);
    const found = await search('schedule', '--collection', 'automations');
    expect(found.hits.map((h) => h.id).sort()).toEqual(scheduled);
    const filtered = await search('schedule', '--collection', 'automations', '--filter', 'enabled=true');
    expect(filtered.hits.map((h) => h.id).sort()).toEqual(scheduled.filter((id) => enabledAutomations.includes(id)));
  });
});
