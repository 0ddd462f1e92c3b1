/**
 * Offline search over 1,000,000 stored objects: FTS5 (prefix words, bm25 rank, snippet, total)
 * against the same questions asked as LIKE scans over titles and raw JSON, in one store.
 * The objects are generated straight into a real store file through the sync's own write path
 * (prepared like synced objects, stored page by page with their search text).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/main/store/db';
import { collection, prepareObject, type CollectionId } from '../../src/main/collections';
import { ftsQuery, SEARCH_LIMITS } from '../../src/main/store/search';

const TOTAL = Number(process.env.ATTEST_BENCH_SEARCH_OBJECTS ?? 1_000_000);
const PAGE = 2_000;

/**
 * A tenant-like vocabulary: application names (a few well known, most obscure), governance words
 * (a few very common, like "access"), user attributes for CEL expressions. Words are drawn with a
 * Zipf law, as in real names and descriptions: some match most objects, most match few.
 */
const KNOWN_APPS = `Okta Workday Salesforce GitHub AWS Azure GCP Slack Jira Confluence Zendesk NetSuite Snowflake Datadog
PagerDuty Box Dropbox Zoom DocuSign Coupa Greenhouse BambooHR Expensify Tableau Looker HubSpot Marketo Intercom
Atlassian ServiceNow SAP Oracle Workato Figma Notion Asana Airtable Gusto Rippling Carta`.split(/\s+/);
const SYLLABLES =
  'ab ac ad al an ar as at ba be bi bo ca ce co da de di do fa fe fi ga ge go ka ke ko la le li lo ma me mi mo na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi vo xa xe za ze zo'.split(
    ' ',
  );
const DOMAIN = `access review user account role group admin read write owner entitlement grant revoke approve manager
policy campaign template automation scope rule finding task request approval certification audit compliance
payroll finance hr engineering sales support legal security privileged dormant orphaned terminated contractor
vendor intern employee onboarding offboarding mover joiner leaver quarterly annual monthly sox pci hipaa gdpr
secret credential token key rotation vault database warehouse analytics reporting dashboard pipeline deploy
release production staging sandbox customer partner internal external emergency breakglass export import
billing invoice ledger expense budget forecast procurement contract renewal license seat identity directory
federation saml oidc mfa password sso provisioning deprovisioning sync connector webhook notification email
slack channel escalation reminder deadline exception exemption risk critical high medium low sensitive`.split(/\s+/);
const ATTRIBUTES =
  'department manager_id location cost_center employee_type title status division region team country company level org_unit'.split(' ');

function zipf(n: number, s: number): (r: number) => number {
  const cdf: number[] = [];
  let sum = 0;
  for (let k = 1; k <= n; k += 1) cdf.push((sum += 1 / k ** s));
  return (r) => {
    const target = r * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** A deterministic generator of synced-looking objects for each collection. */
function generator(seed: number) {
  let s = seed >>> 0;
  const rand = () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return ((s ^ (s >>> 13)) >>> 0) / 2 ** 32;
  };
  const apps = [...KNOWN_APPS];
  for (let i = 0; apps.length < 2_000; i += 1) {
    const n = 2 + (i % 2);
    let name = '';
    for (let j = 0; j < n; j += 1) name += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    apps.push(name.charAt(0).toUpperCase() + name.slice(1));
  }
  const appIndex = zipf(apps.length, 1.0);
  const domainIndex = zipf(DOMAIN.length, 1.0);
  const app = () => apps[appIndex(rand())]!;
  const word = () => DOMAIN[domainIndex(rand())]!;
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  const title = () => `${app()} ${words(1 + Math.floor(rand() * 2))}`;
  const cel = () => `subject.${ATTRIBUTES[Math.floor(rand() * ATTRIBUTES.length)]} == "${rand() < 0.5 ? word() : app().toLowerCase()}"`;
  const state = (prefix: string, values: string[]) => `${prefix}${values[Math.floor(rand() * values.length)]}`;
  return (id: CollectionId, n: number): unknown => {
    const key = `${id.slice(0, 3)}-${n.toString(36)}`;
    switch (id) {
      case 'scopes':
        return {
          id: key,
          appId: `app-${n % 97}`,
          scopeValue: `${word()}:${word()}`,
          displayName: title(),
          description: `Lets the holder ${words(5)} in ${app()}`,
          classification: state('XAA_SCOPE_CLASSIFICATION_', ['READ', 'WRITE', 'SENSITIVE', 'DANGEROUS']),
          state: state('XAA_SCOPE_STATE_', ['ENABLED', 'DISABLED', 'PENDING_REVIEW']),
        };
      case 'automations':
        return {
          id: key,
          displayName: title(),
          description: words(8),
          enabled: rand() < 0.7,
          primaryTriggerType: state('TRIGGER_TYPE_', ['SCHEDULE', 'USER_CREATED', 'GRANT_FOUND', 'WEBHOOK']),
          triggers: [{ userProfileChange: { condition: cel() } }],
          automationSteps: [
            { stepName: 'notify', stepDisplayName: words(2), sendEmail: { subject: title(), userIdsCel: cel() } },
            { stepName: 'revoke', stepDisplayName: words(2), skipIfTrueCel: cel(), createRevokeTasks: { appEntitlementRefsCel: cel() } },
          ],
        };
      case 'campaigns':
        // A list row: the AccessReviewView, the campaign under `accessReview`.
        return {
          accessReview: {
            id: key,
            displayName: `${title()} review`,
            description: words(10),
            state: state('ACCESS_REVIEW_STATE_', ['DRAFT', 'STARTED', 'CLOSED']),
            scopeV2: { celExpression: { expression: cel() } },
          },
          policyPath: `/policies/${n % 13}`,
        };
      case 'templates':
        return { id: key, displayName: `${title()} template`, description: words(10), reviewInstructions: words(6) };
      case 'toolsets':
        return { id: key, displayName: `${title()} tools`, description: words(6), toolCount: Math.floor(rand() * 40) };
      default:
        return {
          id: key,
          displayName: title(),
          description: words(6),
          condition: cel(),
          enabled: rand() < 0.8,
          priority: n % 1000,
          action: { [['acceptRisk', 'createTask', 'snooze', 'suppress'][n % 4]!]: { reason: words(3) } },
        };
    }
  };
}

const SHARES: [CollectionId, number][] = [
  ['scopes', 0.35],
  ['automations', 0.25],
  ['campaigns', 0.1],
  ['templates', 0.05],
  ['toolsets', 0.1],
  ['routing-rules', 0.15],
];

/** Fills a store with `total` objects through the sync's write path, one completed run. */
export function fillStore(store: Store, total: number): number {
  const next = generator(7);
  const { runId } = store.sync.beginRun(SHARES.map(([id]) => id));
  const started = performance.now();
  for (const [id, share] of SHARES) {
    const d = collection(id);
    const count = Math.round(total * share);
    store.sync.startWalk(runId, id);
    for (let start = 0; start < count; start += PAGE) {
      const objects = [];
      for (let n = start; n < Math.min(count, start + PAGE); n += 1) {
        const raw = JSON.stringify(next(id, n));
        objects.push(prepareObject(d, { raw, json: JSON.parse(raw) }));
      }
      store.sync.commitPage(runId, id, 1, objects, start + PAGE < count ? String(start + PAGE) : '', new Date().toISOString());
    }
  }
  store.sync.finishRun(runId);
  store.sync.refreshSearchTerms();
  return performance.now() - started;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The same question as a LIKE scan: every word somewhere in the title or the raw JSON, 50 hits and the total. */
function likeSearch(store: Store, query: string, collectionId?: CollectionId): number {
  const words = query.split(/\s+/).filter(Boolean);
  const where = words.map(() => '(v.title LIKE ? OR v.raw LIKE ?)').join(' AND ');
  const params = words.flatMap((w) => [`%${w}%`, `%${w}%`]);
  const scope = collectionId ? ' AND o.collection = ?' : '';
  if (collectionId) params.push(collectionId);
  const from = `FROM objects o JOIN object_versions v ON v.vid = o.current_vid WHERE ${where}${scope}`;
  store.db.prepare(`SELECT o.id, v.title ${from} LIMIT 50`).all(...params);
  return store.db
    .prepare(`SELECT count(*) ${from}`)
    .pluck()
    .get(...params) as number;
}

export async function benchSearch(): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'attest-bench-search-'));
  const file = join(dir, 'store.sqlite');
  const store = openStore(file);
  try {
    const fillMs = fillStore(store, TOTAL);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const objects = store.db.prepare('SELECT count(*) FROM objects WHERE current_vid IS NOT NULL').pluck().get() as number;

    // Questions people type: one word, a prefix being typed, two words, a phrase, with and
    // without a collection or a filter. Run after one warm-up pass.
    const queries: { q: string; collection?: CollectionId; filters?: Record<string, string | boolean> }[] = [
      // Names of apps (a known one, obscure ones), being typed, with a governance word.
      { q: 'okta' },
      { q: 'workd' },
      { q: 'snowflake admin' },
      { q: 'zendesk' },
      { q: 'docusign' },
      // Governance words from common to rare, a phrase, CEL attributes.
      { q: 'payroll' },
      { q: 'breakglass' },
      { q: 'terminated contractor' },
      { q: '"access review"' },
      { q: 'cost_center' },
      { q: 'vault rotation' },
      { q: 'hipaa' },
      { q: 'deprov' },
      // One collection, filters.
      { q: 'github', collection: 'scopes' },
      { q: 'legal', collection: 'automations', filters: { enabled: true } },
      { q: 'privileged', collection: 'scopes', filters: { classification: 'XAA_SCOPE_CLASSIFICATION_DANGEROUS' } },
      { q: 'finding', collection: 'routing-rules', filters: { actionKind: 'suppress' } },
      { q: 'quarterly review', collection: 'campaigns', filters: { state: 'ACCESS_REVIEW_STATE_STARTED' } },
      // Broad: words most objects contain.
      { q: 'access' },
      { q: 'user' },
    ];
    const run = (x: (typeof queries)[number]) =>
      store.search(x.q, { limit: 50, ...(x.collection ? { collection: x.collection } : {}), ...(x.filters ? { filters: x.filters } : {}) });
    for (const x of queries) run(x);
    const times: number[] = [];
    const perQuery = new Map<string, { ms: number; total: number }>();
    let hits = 0;
    for (let round = 0; round < 5; round += 1) {
      for (const x of queries) {
        const t = performance.now();
        const total = run(x).total;
        const ms = performance.now() - t;
        hits += total;
        times.push(ms);
        const label = `${x.q}${x.collection ? ` in ${x.collection}` : ''}${x.filters ? ' +filter' : ''}`;
        perQuery.set(label, { ms: Math.max(ms, perQuery.get(label)?.ms ?? 0), total });
      }
    }
    times.sort((a, b) => a - b);
    const slowest = [...perQuery].sort((a, b) => b[1].ms - a[1].ms).slice(0, 3);

    // The same questions as LIKE scans (fewer: each reads every row).
    const likeTimes: number[] = [];
    for (const x of queries.slice(0, 8)) {
      const words = (x.q.match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
      if (!ftsQuery(words)) continue;
      const t = performance.now();
      likeSearch(store, words, x.collection);
      likeTimes.push(performance.now() - t);
    }
    likeTimes.sort((a, b) => a - b);
    const fts = { p50: percentile(times, 50), p95: percentile(times, 95) };
    const like = { p50: percentile(likeTimes, 50), p95: percentile(likeTimes, 95) };
    return {
      objects,
      'store MB': Math.round(statSync(file).size / 1e6),
      'fill s (sync write path)': fillMs / 1000,
      'fill objects/s': Math.round(objects / (fillMs / 1000)),
      'fts queries': times.length,
      'fts mean hits/query': Math.round(hits / times.length),
      'fts p50 ms': fts.p50,
      'fts p95 ms (target < 30)': fts.p95,
      'fts max ms': times.at(-1)!,
      'fts slowest queries': slowest.map(([q, v]) => `${q} (${v.total} matches) ${v.ms.toFixed(1)} ms`).join('; '),
      'limits (count cap / rank window / bm25 budget)': `${SEARCH_LIMITS.countCap} / ${SEARCH_LIMITS.rankWindow} / ${SEARCH_LIMITS.bm25Budget}`,
      'like queries': likeTimes.length,
      'like p50 ms': like.p50,
      'like p95 ms': like.p95,
      'like/fts p50 ratio': like.p50 / fts.p50,
      'like/fts p95 ratio': like.p95 / fts.p95,
    };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
