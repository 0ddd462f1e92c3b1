/**
 * The resource servers a new scope can be put on: the API lists none, so the store groups its
 * current scopes by app and resource server (a real SQLite file), names each by its app, matches
 * typed words against the id, the app's name and the scope values, and says how many match in all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/main/store/db';
import { resourceServers } from '../../src/main/store/resource-servers';
import { storeRun } from '../helpers/report-fixtures';

let dir: string;
let store: Store;

const scope = (id: string, appId: string, server: string, value: string) => ({
  id,
  appId,
  xaaResourceServerId: server,
  scopeValue: value,
  displayName: value,
});

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'attest-resource-servers-'));
  store = openStore(join(dir, 'store.sqlite'));
  storeRun(store, {
    apps: [
      { id: 'app-okta', displayName: 'Okta' },
      { id: 'app-gh', displayName: 'GitHub' },
    ],
    scopes: [
      scope('s1', 'app-okta', 'rs-okta-api', 'users:read'),
      scope('s2', 'app-okta', 'rs-okta-api', 'users:write'),
      scope('s3', 'app-okta', 'rs-okta-admin', 'admin:all'),
      scope('s4', 'app-gh', 'rs-gh', 'repo:read'),
      // A scope of an app the store does not hold: its resource server is offered by the app's id.
      scope('s5', 'app-unknown', 'rs-other', 'files:read'),
      { id: 's6', appId: 'app-gh', scopeValue: 'no:server' },
    ],
  });
});

afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('resource servers from the synced scopes', () => {
  it('groups the scopes by app and resource server, by app name, with their values and how many there are', () => {
    const all = resourceServers(store, { limit: 20 });
    expect(all.total).toBe(4);
    expect(all.rows).toEqual([
      { id: 'rs-other', appId: 'app-unknown', appName: '', scopeCount: 1, scopeValues: ['files:read'] },
      { id: 'rs-gh', appId: 'app-gh', appName: 'GitHub', scopeCount: 1, scopeValues: ['repo:read'] },
      { id: 'rs-okta-admin', appId: 'app-okta', appName: 'Okta', scopeCount: 1, scopeValues: ['admin:all'] },
      { id: 'rs-okta-api', appId: 'app-okta', appName: 'Okta', scopeCount: 2, scopeValues: ['users:read', 'users:write'] },
    ]);
  });

  it('offers those of one app, matches every typed word (any case), and counts beyond the window', () => {
    expect(resourceServers(store, { appId: 'app-okta', limit: 20 }).rows.map((r) => r.id)).toEqual(['rs-okta-admin', 'rs-okta-api']);
    expect(resourceServers(store, { text: 'USERS:WRITE', limit: 20 }).rows.map((r) => r.id)).toEqual(['rs-okta-api']);
    expect(resourceServers(store, { text: 'okta admin', limit: 20 }).rows.map((r) => r.id)).toEqual(['rs-okta-admin']);
    expect(resourceServers(store, { text: 'github', limit: 20 }).rows.map((r) => r.id)).toEqual(['rs-gh']);
    expect(resourceServers(store, { text: 'nothing-like-it', limit: 20 })).toEqual({ rows: [], total: 0 });
    const window = resourceServers(store, { limit: 2 });
    expect([window.rows.length, window.total]).toEqual([2, 4]);
  });
});
