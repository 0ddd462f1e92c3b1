/**
 * `attest search automations`: the spec's automation search with each of its filters, asked of the
 * reference tenant (127.0.0.1, random port) with --live, and answered by a real synced SQLite store
 * without it, each filter meaning offline what it means on the server. Both answers are held to
 * the tenant's own data read by the spec's rules, and to each other.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareConnection, recordConnection } from '../../src/main/app/saved-connections';
import type { Automation, AutomationTriggerKey } from '../../src/shared/api-types';
import { AUTOMATION_TRIGGER_KEYS, TRIGGER_TYPE_OF } from '../../src/shared/api-types';
import { PAGE_SIZE_MIN } from '../../src/shared/pagination';
import { startTestTenant, type TestTenant } from '../helpers/tenant';
import { tempDir } from './outbox.helpers';
import { runCli } from './sync.helpers';

let tenant: TestTenant;
let tmp: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

interface Answer {
  source: 'live' | 'store';
  asOf: string | null;
  complete: boolean;
  pages: number;
  automations: { id: string; name: string; appId: string; appName: string; primaryTriggerType: string }[];
}

beforeAll(async () => {
  tenant = await startTestTenant({ seed: 11 });
  tmp = tempDir('attest-automation-search-');
  const dataDir = join(tmp.dir, 'data');
  recordConnection(dataDir, prepareConnection(dataDir, { clientId: tenant.clientId, serverUrl: tenant.url, name: 'auto' }));
  env = { ATTEST_CLIENT_SECRET: tenant.clientSecret, ATTEST_DATA_DIR: dataDir };
  const synced = await runCli(['sync', '--connection', 'auto'], env);
  expect(synced.code, synced.err).toBe(0);
});
afterAll(async () => {
  await tenant?.close();
  tmp?.remove();
});

const all = (): Automation[] => [...tenant.data.automations.values()];

async function search(args: string[]): Promise<Answer & { err: string }> {
  const r = await runCli(['search', 'automations', ...args, '--json', '--connection', 'auto'], env);
  expect(r.code, r.err).toBe(0);
  return { ...(JSON.parse(r.out) as Answer), err: r.err };
}

const ids = (answer: Answer) => new Set(answer.automations.map((a) => a.id));
const expected = (match: (a: Automation) => boolean) =>
  new Set(
    all()
      .filter(match)
      .map((a) => a.id!),
  );

/** Every trigger type an automation has anywhere: primary, live triggers, draft triggers. */
function anyTriggerTypes(a: Automation): Set<string> {
  const kinds = [...(a.triggers ?? []), ...(a.draftTriggers ?? [])].flatMap((t) =>
    AUTOMATION_TRIGGER_KEYS.filter((k) => (t as Record<string, unknown>)[k] !== undefined),
  );
  return new Set([a.primaryTriggerType ?? '', ...kinds.map((k: AutomationTriggerKey) => TRIGGER_TYPE_OF[k])]);
}

describe('attest search automations', () => {
  it('sends each filter of the spec live, and the store answers the same with the server meaning of each', async () => {
    const a = all();
    const one = a.find((x) => !x.isDraft)!;
    const other = a.find((x) => x.appId !== one.appId)!;
    const word = one.displayName!.split(' ')[0]!.toUpperCase();
    const cases: { args: string[]; match: (x: Automation) => boolean }[] = [
      { args: [], match: () => true },
      { args: ['--query', word], match: (x) => `${x.displayName}\n${x.description}`.toLowerCase().includes(word.toLowerCase()) },
      { args: ['--app-id', one.appId!], match: (x) => x.appId === one.appId },
      { args: ['--app-ids', `${one.appId},${other.appId}`], match: (x) => x.appId === one.appId || x.appId === other.appId },
      // appIds supersedes appId when given.
      { args: ['--app-id', one.appId!, '--app-ids', other.appId!], match: (x) => x.appId === other.appId },
      { args: ['--draft'], match: (x) => x.isDraft === true },
      { args: ['--published'], match: (x) => !x.isDraft },
      { args: ['--status', 'on'], match: (x) => x.enabled === true },
      { args: ['--status', 'AUTOMATION_STATUS_FILTER_OFF'], match: (x) => !x.enabled },
      { args: ['--status', 'on,off'], match: () => true },
      { args: ['--draft', '--status', 'off'], match: (x) => x.isDraft === true && !x.enabled },
      {
        args: ['--trigger-type', 'schedule,webhook'],
        match: (x) => ['TRIGGER_TYPE_SCHEDULE', 'TRIGGER_TYPE_WEBHOOK'].includes(x.primaryTriggerType!),
      },
      {
        args: ['--trigger-type', 'TRIGGER_TYPE_FORM', '--published'],
        match: (x) => x.primaryTriggerType === 'TRIGGER_TYPE_FORM' && !x.isDraft,
      },
      { args: ['--ref', one.id!, '--ref', other.id!], match: (x) => x.id === one.id || x.id === other.id },
      {
        args: ['--query', word, '--status', 'on', '--app-ids', `${one.appId},${other.appId}`],
        match: (x) =>
          `${x.displayName}\n${x.description}`.toLowerCase().includes(word.toLowerCase()) &&
          x.enabled === true &&
          (x.appId === one.appId || x.appId === other.appId),
      },
    ];
    for (const c of cases) {
      const want = expected(c.match);
      const live = await search(['--live', ...c.args]);
      expect(live.source).toBe('live');
      expect(live.complete).toBe(true);
      expect(ids(live), `live ${c.args.join(' ')}`).toEqual(want);
      const stored = await search(c.args);
      expect(stored.source).toBe('store');
      expect(ids(stored), `store ${c.args.join(' ')}`).toEqual(want);
    }
  });

  it('the trigger filter matches the primary trigger type, as the server does; "any trigger type" is its own filter', async () => {
    // A type some automation has only as a second or a draft trigger: where the two meanings part.
    const type = ['TRIGGER_TYPE_SCHEDULE', ...new Set(all().map((a) => a.primaryTriggerType!))].find((t) =>
      all().some((a) => a.primaryTriggerType !== t && anyTriggerTypes(a).has(t)),
    )!;
    expect(type).toBeDefined();
    const primary = expected((a) => a.primaryTriggerType === type);
    const anyTrigger = expected((a) => anyTriggerTypes(a).has(type));
    expect(anyTrigger.size).toBeGreaterThan(primary.size);

    const live = await search(['--live', '--trigger-type', type]);
    const stored = await search(['--trigger-type', type]);
    expect(ids(live)).toEqual(primary);
    expect(ids(stored)).toEqual(ids(live));
    const wider = await search(['--any-trigger-type', type]);
    expect(ids(wider)).toEqual(anyTrigger);

    const refused = await runCli(['search', 'automations', '--live', '--any-trigger-type', type, '--connection', 'auto'], env);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--any-trigger-type is an offline filter');
  });

  it('walks the pages, names the apps, and says it answered live and as of when; the store says when it synced', async () => {
    // The spec's pagination raises a page size below 10 to 10: pages of 10 whatever is asked up to 10.
    const live = await runCli(['search', 'automations', '--live', '--page-size', '3', '--connection', 'auto'], env);
    expect(live.code, live.err).toBe(0);
    const pages = Math.ceil(all().length / PAGE_SIZE_MIN);
    expect(pages).toBeGreaterThan(2);
    expect(live.err).toMatch(new RegExp(`${all().length} automations: asked of the tenant at \\d{4}-\\d\\d-\\d\\dT.*\\(${pages} pages\\)`));
    const first = all()[0]!;
    const app = tenant.data.apps.get(first.appId!)!;
    expect(live.out).toContain(first.displayName);
    expect(live.out).toContain(`${app.displayName} (${app.id})`);

    const capped = await search(['--live', '--max-pages', '2']);
    expect(capped.automations).toHaveLength(2 * PAGE_SIZE_MIN);
    expect(capped.complete).toBe(false);
    expect(capped.pages).toBe(2);
    expect(capped.err).toContain('stopped at the page limit, more remain');

    const stored = await runCli(['search', 'automations', '--status', 'on', '--connection', 'auto'], env);
    expect(stored.code, stored.err).toBe(0);
    expect(stored.err).toMatch(/automations: from the store, automations synced \d{4}-.*\(offline; --live asks the tenant\)/);

    // After `--`, the word is a full-text query as any other.
    const word = await runCli(['search', '--json', '--connection', 'auto', '--', 'automations'], env);
    expect(word.code, word.err).toBe(0);
    expect(JSON.parse(word.out)).toHaveProperty('hits');
  });

  it('walks past empty pages with a live token, and stops at page tokens that go round in a cycle, naming the token', async () => {
    try {
      tenant.faults.set('emptyPages=0.5');
      expect(ids(await search(['--live']))).toEqual(expected(() => true));
      tenant.faults.set('cycleTokens=2');
      const cycled = await runCli(['search', 'automations', '--live', '--connection', 'auto'], env);
      expect(cycled.code).toBe(1);
      expect(cycled.err).toMatch(
        /the tenant gave page token '.+' again after page 3; it was first used for page 2\. Following it would never end/,
      );
    } finally {
      tenant.faults.clear();
    }
  });

  it('refuses bad values with the value and the allowed ones', async () => {
    const bad = async (args: string[]) => {
      const r = await runCli(['search', 'automations', ...args, '--connection', 'auto'], env);
      expect(r.code, r.out).toBe(2);
      return r.err;
    };
    expect(await bad(['--live', '--status', 'paused'])).toMatch(/unknown status 'paused' \(one of on, off\)/);
    expect(await bad(['--trigger-type', 'telepathy'])).toMatch(
      /unknown trigger type 'telepathy' \(one of user_profile_change, .*schedule_no_user\)/,
    );
    expect(await bad(['--live', '--page-size', '11'])).toMatch(/--page-size '11' .* 1 to 10 automations per page/);
    expect(await bad(['--live', '--page-size', '0'])).toContain("--page-size '0'");
    expect(await bad(['--draft', '--published'])).toContain('not both');
    expect(await bad(['payroll'])).toContain('--query "payroll"');
  });
});
