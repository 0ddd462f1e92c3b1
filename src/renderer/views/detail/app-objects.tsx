/**
 * An app's page: its entitlements, its users (app users) and the resource servers of its
 * cross-app access scopes, each a virtualized list read from the store a page at a time (the same
 * store queries the lists use), each row leading to the object's page.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { CollectionId, ObjectRow } from '../../../shared/contract';
import { call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { Empty, ErrorState, Loading } from '../../components/States';
import { str, VIRTUAL_ROW_HEIGHT, virtualRowStyle } from './parts';

const PAGE = 200;

/** Rows of a fixed height, only those in view in the DOM; `onRange` hears which are in view. */
function VirtualRows({
  count,
  row,
  onRange,
}: {
  count: number;
  row(index: number): ReactNode;
  onRange?(first: number, last: number): void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => VIRTUAL_ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (last >= 0) onRange?.(first, last);
  }, [first, last, onRange]);
  return (
    <div ref={scroller} role="list" style={{ maxHeight: 320, overflow: 'auto', position: 'relative' }}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => (
          <div key={item.key} role="listitem" className="row small" style={virtualRowStyle(item.start)}>
            {row(item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}

/** A section of the page: its heading with the count, and its body. */
function Section({ title, total, testId, children }: { title: string; total: string; testId: string; children: ReactNode }) {
  return (
    <section className="card stack" aria-label={title} data-testid={testId}>
      <div className="row wrap" style={{ alignItems: 'baseline' }}>
        <h2 style={{ margin: 0 }}>{title}</h2>
        <span className="muted small" data-testid={`${testId}-total`}>
          {total}
        </span>
      </div>
      {children}
    </section>
  );
}

const inCopy = (n: number) => `${n.toLocaleString('en-US')} in the local copy`;

/** The objects of a collection that match `filters`, read a page at a time as they scroll into view. */
function ObjectsOf({
  title,
  testId,
  collection,
  filters,
  sortKey,
  detail,
}: {
  title: string;
  testId: string;
  collection: CollectionId;
  filters: Record<string, string[]>;
  sortKey: string;
  /** What the row says besides the object's name and id. */
  detail(row: ObjectRow): string;
}) {
  const navigate = useApp((s) => s.navigate);
  const dataVersion = useApp((s) => s.dataVersion);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [, setTick] = useState(0);
  const pages = useRef(new Map<number, ObjectRow[]>());
  const asked = useRef(new Set<number>());
  const key = JSON.stringify(filters);

  const load = useCallback(
    (page: number) => {
      if (asked.current.has(page)) return;
      asked.current.add(page);
      const mine = asked.current;
      const query = { collection, filters: JSON.parse(key) as Record<string, string[]>, sort: { key: sortKey, dir: 'asc' as const } };
      call('listObjects', { ...query, offset: page * PAGE, limit: PAGE })
        .then((result) => {
          if (mine !== asked.current) return;
          pages.current.set(page, result.rows);
          setTotal(result.total);
          setTick((t) => t + 1);
        })
        .catch((failure: unknown) => mine === asked.current && setError(errorMessage(failure)));
    },
    [collection, key, sortKey],
  );
  useEffect(() => {
    pages.current = new Map();
    asked.current = new Set();
    setTotal(null);
    setError(null);
    load(0);
  }, [load, dataVersion]);
  const onRange = useCallback(
    (first: number, last: number) => {
      for (let page = Math.floor(first / PAGE); page <= Math.floor(last / PAGE); page += 1) load(page);
    },
    [load],
  );

  const row = (index: number) => {
    const found = pages.current.get(Math.floor(index / PAGE))?.[index % PAGE];
    if (!found) return <span className="muted">…</span>;
    return (
      <>
        <button
          className="btn link small"
          data-testid={`${testId}-link`}
          onClick={() => navigate({ view: 'detail', collection, id: found.id })}
        >
          {found.title || found.id}
        </button>
        <code className="muted">{found.id}</code>
        <span className="grow" />
        <span className="muted">{detail(found)}</span>
      </>
    );
  };

  let body: ReactNode;
  const retry = () => {
    asked.current = new Set();
    setError(null);
    load(0);
  };
  if (error && total === null) body = <ErrorState message={error} onRetry={retry} />;
  else if (total === null) body = <Loading />;
  else if (total === 0) body = <Empty title={`No ${title.toLowerCase()} in the local copy`} />;
  else body = <VirtualRows count={total} row={row} onRange={onRange} />;
  return (
    <Section title={title} total={total === null ? '' : inCopy(total)} testId={testId}>
      {body}
    </Section>
  );
}

interface ResourceServer {
  id: string;
  scopes: string[];
}

/** The resource servers of an app's scopes, each with its scopes (every scope of the app read from the store, 1,000 at a time). */
async function resourceServersOf(appId: string): Promise<ResourceServer[]> {
  const byServer = new Map<string, string[]>();
  for (let offset = 0; ; offset += 1000) {
    const page = await call('listObjects', {
      collection: 'scopes',
      filters: { appId: [appId] },
      sort: { key: 'xaaResourceServerId', dir: 'asc' },
      offset,
      limit: 1000,
    });
    for (const scope of page.rows) {
      const server = str(scope.cells.xaaResourceServerId);
      byServer.set(server, [...(byServer.get(server) ?? []), str(scope.cells.scopeValue) || scope.title]);
    }
    if (page.rows.length < 1000 || offset + page.rows.length >= page.total) break;
  }
  return [...byServer].map(([id, scopes]) => ({ id, scopes }));
}

/** The resource servers an app's scopes belong to: each opens the scopes list filtered to the app and that server. */
function ResourceServers({ appId }: { appId: string }) {
  const navigate = useApp((s) => s.navigate);
  const setView = useApp((s) => s.setView);
  const dataVersion = useApp((s) => s.dataVersion);
  const [servers, setServers] = useState<ResourceServer[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    resourceServersOf(appId)
      .then((found) => live && setServers(found))
      .catch((failure: unknown) => live && setError(errorMessage(failure)));
    return () => {
      live = false;
    };
  }, [appId, dataVersion, attempt]);

  const openScopes = (server: ResourceServer) => {
    const filters = server.id ? { appId: [appId], xaaResourceServerId: [server.id] } : { appId: [appId] };
    // The scopes list opens with these filters (as a list kept across Back and Forward would).
    setView('list:scopes', { sort: null, filters, typed: '', selected: [], active: 0, scrollTop: 0 });
    navigate({ view: 'list', collection: 'scopes' });
  };
  const row = (index: number) => {
    const server = servers![index]!;
    const count = server.scopes.length;
    return (
      <>
        <button className="btn link small" data-testid="resource-server-link" data-server={server.id} onClick={() => openScopes(server)}>
          {server.id || 'No resource server named'}
        </button>
        <span
          className="muted"
          style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          title={server.scopes.join(' ')}
        >
          {count} {count === 1 ? 'scope' : 'scopes'}: {server.scopes.join(' ')}
        </span>
      </>
    );
  };

  let body: ReactNode;
  if (error && !servers) body = <ErrorState message={error} onRetry={() => setAttempt((n) => n + 1)} />;
  else if (!servers) body = <Loading />;
  else if (servers.length === 0) body = <Empty title="No cross-app scopes of this app in the local copy" />;
  else body = <VirtualRows count={servers.length} row={row} />;
  return (
    <Section title="Resource servers" total={servers ? inCopy(servers.length) : ''} testId="app-resource-servers">
      {body}
    </Section>
  );
}

/** What an app's page lists: its entitlements, its users and its scopes' resource servers. */
export function AppObjects({ appId }: { appId: string }) {
  const filters = { appId: [appId] };
  return (
    <>
      <ObjectsOf
        title="Entitlements"
        testId="app-entitlements"
        collection="entitlements"
        filters={filters}
        sortKey="displayName"
        detail={(row) =>
          [str(row.cells.entitlementType), typeof row.cells.grantCount === 'number' ? `${row.cells.grantCount} members` : '']
            .filter(Boolean)
            .join(' · ')
        }
      />
      <ObjectsOf
        title="Users"
        testId="app-users"
        collection="app-users"
        filters={filters}
        sortKey="displayName"
        detail={(row) => str(row.cells.email)}
      />
      <ResourceServers appId={appId} />
    </>
  );
}
