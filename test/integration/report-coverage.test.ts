import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionId } from '../../src/main/collections';
import { exportReport } from '../../src/main/reports';
import { openStore, type Store } from '../../src/main/store/db';
import {
  ACCESS_REVIEW_FIELDS,
  ACCESS_REVIEW_TEMPLATE_FIELDS,
  AUTOMATION_FIELDS,
  AUTOMATION_STEP_ACTION_KEYS,
  AUTOMATION_TRIGGER_KEYS,
  FINDING_ROUTING_RULE_FIELDS,
  MCP_ACCESS_PROFILE_FIELDS,
  ROUTING_RULE_ACTION_KEYS,
  SCOPE_SELECTOR_KEYS,
  TASK_FIELDS,
  TASK_VIEW_FIELDS,
} from '../../src/shared/api-types';
import { openpyxlDump, type OpenpyxlDump } from '../helpers/openpyxl';
import { storeRun } from '../helpers/report-fixtures';

/**
 * Every member of every resource of the spec is in the evidence workbook: flat on its collection's
 * sheet where it is one value, or on a child sheet (campaign and template settings, step settings,
 * task details) where it repeats or is a structure. The members are those of the spec's resource tables, as src/shared/api-types lists
 * them (the *_FIELDS and *_KEYS lists) and as the fixtures of test/fixtures carry them, nested
 * members included (test/unit/api-types.test.ts holds those fixtures to the spec's tables).
 */
const dir = mkdtempSync(join(tmpdir(), 'attest-report-coverage-'));
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

const selector = fixture('scope-selector.json');
const template: Record<string, unknown> = { ...fixture('access-review-template.json'), scope: selector };
const wrapper = fixture('access-review-wrapper.json');
const view = wrapper.accessReview as { accessReview: Record<string, unknown> };
const campaign = { ...view, accessReview: { ...view.accessReview, scopeV2: selector } };
const automation = fixture('automation.json');
const task = fixture('task-view.json').taskView as Record<string, unknown>;
const rule = fixture('finding-routing-rule.json');
/** The rule once with each kind of action. */
const rules = (fixture('finding-routing-rule-actions.json') as unknown as Record<string, unknown>[]).map((action, i) => ({
  ...rule,
  id: `${String(rule.id)}-${i}`,
  action,
}));

/** What each collection stores (the object at the top of what is stored), one of each. */
const STORED: Partial<Record<CollectionId, unknown[]>> = {
  scopes: [fixture('scope.json')],
  templates: [template],
  campaigns: [campaign],
  automations: [automation],
  tasks: [task],
  toolsets: [fixture('mcp-access-profile.json')],
  'routing-rules': [rule, ...rules],
};

/** The sheets that show each collection's members. */
const SHEETS: Partial<Record<CollectionId, string[]>> = {
  scopes: ['Scopes'],
  templates: ['Templates', 'Template settings'],
  campaigns: ['Campaigns', 'Campaign settings'],
  automations: ['Automations', 'Automation steps', 'Step settings'],
  tasks: ['Tasks', 'Task details'],
  toolsets: ['MCP toolsets'],
  'routing-rules': ['Routing rules'],
};

let store: Store;
let py: OpenpyxlDump;

beforeAll(async () => {
  store = openStore(join(dir, 'store.sqlite'));
  storeRun(store, STORED);
  const out = join(dir, 'evidence.xlsx');
  await exportReport({
    kind: 'evidence',
    out,
    store,
    connection: {
      name: 'acme',
      tenantHost: 'acme.example.test',
      clientId: 'abc@acme.example.test/attest',
      serverUrl: 'https://acme.example.test',
    },
    appVersion: '9.9.9',
  });
  py = openpyxlDump(out, true);
}, 60_000);

afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The API members the Dictionary says each sheet's columns carry ("a.b", or "a.*": every member below a). */
function carried(collection: CollectionId): string[] {
  const sheets = SHEETS[collection]!;
  return py.sheets
    .find((s) => s.name === 'Dictionary')!
    .data!.slice(1)
    .filter((r) => sheets.includes(String(r[1])) && typeof r[6] === 'string')
    .flatMap((r) => String(r[6]).split(', '))
    .map((m) => m.replace(/ \(derived\)$/, ''));
}

const isCarried = (path: string, members: readonly string[]): boolean =>
  members.some((m) => m === path || (m.endsWith('.*') && (path === m.slice(0, -2) || path.startsWith(m.slice(0, -1)))));

/** Every member path of an object, at every depth ("a.b.c"; a list's items share their list's path). */
function paths(value: unknown, base = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((v) => paths(v, base)))];
  if (value === null || typeof value !== 'object') return base ? [base] : [];
  const entries = Object.entries(value);
  if (entries.length === 0) return base ? [base] : [];
  return entries.flatMap(([k, v]) => paths(v, base ? `${base}.${k}` : k));
}

describe('every member of every resource of the spec is in the evidence workbook', () => {
  it.each(Object.keys(STORED).map((c) => [c]))('%s: every member of the fixture, nested ones included, is carried by a column', (c) => {
    const collection = c as CollectionId;
    const members = carried(collection);
    const missing = STORED[collection]!.flatMap((o) => paths(o)).filter((p) => !isCarried(p, members));
    expect([...new Set(missing)]).toEqual([]);
  });

  it("every member the api-types list (the spec's tables) is carried", () => {
    const lists: [CollectionId, string, readonly string[]][] = [
      ['templates', '', ACCESS_REVIEW_TEMPLATE_FIELDS],
      ['templates', 'scope.', SCOPE_SELECTOR_KEYS],
      ['campaigns', 'accessReview.', ACCESS_REVIEW_FIELDS],
      ['campaigns', 'accessReview.scopeV2.', SCOPE_SELECTOR_KEYS],
      ['automations', '', AUTOMATION_FIELDS],
      ['automations', 'automationSteps.', AUTOMATION_STEP_ACTION_KEYS],
      ['automations', 'triggers.', AUTOMATION_TRIGGER_KEYS],
      ['tasks', '', TASK_VIEW_FIELDS.filter((f) => f !== 'task')],
      ['tasks', 'task.', TASK_FIELDS],
      ['toolsets', '', MCP_ACCESS_PROFILE_FIELDS],
      ['routing-rules', '', FINDING_ROUTING_RULE_FIELDS],
      ['routing-rules', 'action.', ROUTING_RULE_ACTION_KEYS],
    ];
    const missing = lists.flatMap(([collection, base, fields]) => {
      const members = carried(collection);
      // A member is carried by its own column, a column of one of its members, or a sheet that carries all below it.
      return fields.map((f) => `${base}${f}`).filter((p) => !isCarried(p, members) && !members.some((m) => m.startsWith(`${p}.`)));
    });
    expect(missing).toEqual([]);
  });

  it('the child sheets hold each setting in words: schedules, waits, email, vault and TTL, password policy, selectors, health', () => {
    const rows = (name: string): Record<string, unknown>[] => {
      const data = py.sheets.find((s) => s.name === name)!.data!;
      const header = data[0]!.slice(1) as string[];
      return data.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i + 1]])));
    };
    const steps = rows('Step settings');
    const setting = (kind: string, path: string): unknown => steps.find((r) => r.Kind === kind && r.Setting === path)?.Value;
    expect(setting('Schedule', 'cronSpec')).toBe(getPath(automation, 'triggers', 'schedule', 'cronSpec'));
    expect(setting('Schedule', 'timezone')).toBe(getPath(automation, 'triggers', 'schedule', 'timezone'));
    expect(setting('Wait for duration', 'duration')).toMatch(/^\d+ (day|hour|minute|second)s?/);
    expect(setting('Send email', 'subject')).toBe(getPath(automation, 'automationSteps', 'sendEmail', 'subject'));
    expect(setting('Send email', 'body')).toBe(getPath(automation, 'automationSteps', 'sendEmail', 'body'));
    expect(setting('Store credential', 'vaultType')).not.toMatch(/STORE_CREDENTIAL_VAULT_TYPE_/);
    expect(setting('Store credential', 'ttl')).toMatch(/^\d+ (day|hour|minute|second)s?/);
    expect(setting('Generate password', 'policy.minCharacterCount')).toBe(
      getPath(automation, 'automationSteps', 'generatePassword', 'policy', 'minCharacterCount'),
    );
    expect(setting('Generate password', 'passwordPolicyId')).toBe(
      getPath(automation, 'automationSteps', 'generatePassword', 'passwordPolicyId'),
    );

    const criteria = new Set(rows('Template settings').map((r) => `${String(r.Group)}: ${String(r.Member)}`));
    for (const key of SCOPE_SELECTOR_KEYS) expect(criteria.has(`Scope: ${words(key)}`), key).toBe(true);
    expect(criteria.has('Inclusion scope: Manager ids')).toBe(true);
    const groups = new Set(rows('Campaign settings').map((r) => String(r.Group)));
    for (const g of ['Scope', 'Inclusion scope', 'Exclusion scope', 'App user scope', 'Health', 'Insights'])
      expect(groups.has(g), g).toBe(true);

    const [c] = rows('Campaigns');
    const [t] = rows('Templates');
    const a = view.accessReview;
    expect([c!.Description, c!['Review instructions'], t!.Description, t!['Review instructions']]).toEqual([
      a.description,
      a.reviewInstructions,
      template.description,
      template.reviewInstructions,
    ]);
    const value = (sheet: string, group: string, member: string): unknown =>
      rows(sheet).find((r) => r.Group === group && r.Member === member)?.Value;
    expect(value('Campaign settings', 'Health', 'Phantom locked count')).toBe(Number(getPath(a, 'campaignHealth', 'phantomLockedCount')));
    expect(value('Template settings', 'Chat channel', 'Name')).toBe(getPath(template, 'chatChannel', 'name'));
    expect(value('Template settings', 'Notifications', 'Send kickoff')).toBe(getPath(template, 'notificationConfig', 'sendKickoff'));
  });
});

/** A member of the first item (of a list) that has it, through lists. */
function getPath(value: unknown, ...keys: string[]): unknown {
  let at: unknown = value;
  for (const k of keys) {
    if (Array.isArray(at)) at = at.find((i) => i !== null && typeof i === 'object' && k in i);
    at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[k] : undefined;
  }
  return at;
}

/** A member name in words, as the sheets write it: accountCelExpression -> "Account cel expression". */
const words = (key: string): string => {
  const text = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
};
