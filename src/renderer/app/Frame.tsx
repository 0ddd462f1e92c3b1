import { useRef, type ReactNode } from 'react';
import {
  AppWindow,
  Bot,
  CircleHelp,
  Contact,
  ClipboardCheck,
  FileChartColumn,
  FileText,
  GitCompare,
  Inbox,
  KeyRound,
  LayoutDashboard,
  Layers,
  ListChecks,
  Route as RouteIcon,
  Search,
  Settings,
  ShieldCheck,
  UserCheck,
  Users,
  Wrench,
  type LucideIcon,
} from 'lucide-react';
import type { CollectionId, ConnectionStatus } from '../../shared/contract';
import { useApp, type Route } from '../stores/app';
import { count } from '../components/format';
import { COLLECTION_LABELS, COLLECTION_ORDER } from '../components/collections';
import { SecretPrompt } from './SecretPrompt';
import { SyncButton } from './SyncButton';
import { TenantSwitcher } from './TenantSwitcher';
import { Announcer } from './Announcer';
import { AutoRunChip } from './AutoRunChip';
import { Notices } from './Notices';
import { useFocusOnNavigation } from './focus-on-navigation';

const COLLECTION_ICONS: Record<CollectionId, LucideIcon> = {
  campaigns: ClipboardCheck,
  templates: FileText,
  automations: Bot,
  toolsets: Wrench,
  'routing-rules': RouteIcon,
  scopes: KeyRound,
  apps: AppWindow,
  entitlements: Layers,
  'app-users': Users,
  memberships: UserCheck,
  tasks: ListChecks,
  users: Contact,
  policies: ShieldCheck,
};

/** What the header says of the open connection. */
const STATUS_LABELS: Record<ConnectionStatus, string> = {
  online: 'Online',
  'credentials-refused': 'Credentials refused',
  offline: 'Offline',
};

/** A sidebar entry: an icon and its label (only the icon where the window is narrow; the label stays its name and its tooltip). */
function NavItem({ route, label, icon: Icon, badge }: { route: Route; label: string; icon: LucideIcon; badge?: ReactNode }) {
  const current = useApp((s) => s.route);
  const navigate = useApp((s) => s.navigate);
  const active =
    current.view === route.view &&
    (route.view !== 'list' ||
      ((current.view === 'list' || current.view === 'detail') && 'collection' in current && current.collection === route.collection));
  const activeDetail = route.view === 'list' && current.view === 'detail' && current.collection === route.collection;
  return (
    <button
      className={`nav-item ${active || activeDetail ? 'active' : ''}`}
      onClick={() => navigate(route)}
      aria-current={active ? 'page' : undefined}
      title={label}
    >
      <Icon className="nav-icon" size={16} aria-hidden="true" />
      <span className="nav-label">{label}</span>
      {badge !== undefined && <span className="count">{badge}</span>}
    </button>
  );
}

/** Back and Forward through the screens visited (also Alt+Left and Alt+Right). */
function BackForward() {
  const canBack = useApp((s) => s.backStack.length > 0);
  const canForward = useApp((s) => s.forwardStack.length > 0);
  const back = useApp((s) => s.back);
  const forward = useApp((s) => s.forward);
  return (
    <div className="row" style={{ gap: 2 }}>
      <button className="btn small" onClick={back} disabled={!canBack} aria-label="Back" title="Back (Alt+Left)">
        ←
      </button>
      <button className="btn small" onClick={forward} disabled={!canForward} aria-label="Forward" title="Forward (Alt+Right)">
        →
      </button>
    </div>
  );
}

export function Frame({ children }: { children: ReactNode }) {
  const status = useApp((s) => s.status);
  const outboxPending = useApp((s) => s.outboxPending);
  const outboxFailures = useApp((s) => (s.outboxCounts.failed ?? 0) + (s.outboxCounts.uncertain ?? 0));
  const connection = useApp((s) => s.connection);
  const setPalette = useApp((s) => s.setPalette);
  const recheck = useApp((s) => s.recheckConnection);
  const navigate = useApp((s) => s.navigate);
  const refused = connection.status === 'credentials-refused';
  const mac = navigator.platform.toLowerCase().includes('mac');
  const main = useRef<HTMLElement>(null);
  useFocusOnNavigation(main);
  return (
    <div className="frame">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // Focus moves to the content without touching the address (its fragment is the host's).
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <Announcer />
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-initial">A</span>
          <span className="brand-rest">ttest</span>
          <span className="brand-dot">.</span>
        </div>
        <NavItem route={{ view: 'overview' }} label="Overview" icon={LayoutDashboard} />
        <NavItem route={{ view: 'search' }} label="Search" icon={Search} />
        <NavItem route={{ view: 'changes' }} label="Changes" icon={GitCompare} />
        <div className="nav-sep" />
        {COLLECTION_ORDER.map((id) => {
          const stored = status.find((s) => s.id === id);
          return (
            <NavItem
              key={id}
              route={{ view: 'list', collection: id }}
              label={COLLECTION_LABELS[id]}
              icon={COLLECTION_ICONS[id]}
              badge={stored?.asOf ? count(stored.count) : undefined}
            />
          );
        })}
        <div className="nav-sep" />
        <NavItem
          route={{ view: 'outbox' }}
          label="Outbox"
          icon={Inbox}
          badge={
            outboxPending > 0 || outboxFailures > 0 ? (
              <>
                {outboxFailures > 0 && (
                  <span className="badge bad" data-testid="outbox-failures-badge" title={`${count(outboxFailures)} failed or uncertain`}>
                    {count(outboxFailures)}
                    <span className="sr-only"> failed or uncertain</span>
                  </span>
                )}
                {outboxPending > 0 && outboxFailures > 0 && ' '}
                {outboxPending > 0 && (
                  <span className="badge pending" data-testid="outbox-badge">
                    {count(outboxPending)}
                  </span>
                )}
              </>
            ) : undefined
          }
        />
        <NavItem route={{ view: 'reports' }} label="Reports" icon={FileChartColumn} />
        <NavItem route={{ view: 'settings' }} label="Settings" icon={Settings} />
        <NavItem route={{ view: 'help' }} label="Help" icon={CircleHelp} />
      </nav>
      <header className="topbar">
        <BackForward />
        <TenantSwitcher />
        <button
          className="btn small row"
          onClick={() => void recheck()}
          title={connection.reason ?? 'Check the connection now'}
          data-testid="online-indicator"
          data-online={connection.online}
          data-status={connection.status}
        >
          <span className={`dot ${connection.online ? 'ok' : 'bad'}`} />
          <span className="status-label">{STATUS_LABELS[connection.status]}</span>
        </button>
        <AutoRunChip />
        <div className="grow" />
        <button
          className="search-trigger"
          onClick={() => setPalette(true)}
          aria-keyshortcuts={mac ? 'Meta+K' : 'Control+K'}
          title="Search everything"
        >
          <span className="grow" style={{ textAlign: 'left' }}>
            Search…
          </span>
          <span className="search-keys" aria-hidden="true">
            <kbd>{mac ? '⌘' : 'Ctrl'}</kbd> <kbd>K</kbd>
          </span>
        </button>
        <SyncButton />
      </header>
      <main className="content flush" style={{ minHeight: 0 }} id="main" ref={main} tabIndex={-1}>
        {connection.needsSecret && <SecretPrompt />}
        {refused && (
          <div className="banner error" role="status" data-testid="credentials-refused-banner">
            <strong>Credentials refused.</strong>
            <span className="grow">{connection.reason}</span>
            <button className="btn small" onClick={() => navigate({ view: 'settings' })}>
              Replace credential
            </button>
          </div>
        )}
        {!connection.online && !refused && !connection.needsSecret && connection.connection && (
          <div className="banner offline" role="status" data-testid="offline-banner">
            <strong>Offline.</strong>
            <span className="grow">
              You are browsing the local copy{connection.reason ? ` (${connection.reason})` : ''}. Sync when the tenant is reachable again.
            </span>
            <button className="btn small" onClick={() => void recheck()}>
              Retry
            </button>
          </div>
        )}
        {children}
      </main>
      <Notices />
    </div>
  );
}
