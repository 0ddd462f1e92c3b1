import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../src/main/outbox/journal';
import { exportReport, REPORT_KINDS, verifyWorkbook, type ReportKind } from '../../src/main/reports';
import { openStore, type Store } from '../../src/main/store/db';
import type { CollectionId } from '../../src/main/collections';
import { collection as descriptorOf } from '../../src/main/collections';
import { openpyxlDump, type OpenpyxlDump } from '../helpers/openpyxl';
import { RAW, rawEnumCells } from '../helpers/report-cells';
import { prepareObject, storeRun } from '../helpers/report-fixtures';

/**
 * Every report of the catalog, exported from a real store (filled through the store's own sync
 * writer with objects that carry unknown enum values and kinds, microsecond and zero dates), read
 * back with exceljs and with openpyxl, and verified.
 */
const dir = mkdtempSync(join(tmpdir(), 'attest-report-catalog-'));
let store: Store;
let run1 = 0;
let run2 = 0;
const connection = {
  name: 'acme',
  tenantHost: 'acme.example.test',
  clientId: 'abc123@acme.example.test/attest',
  serverUrl: 'https://acme.example.test',
};

const iso = (i: number): string => new Date(Date.UTC(2025, 0, 1) + i * 3_600_123).toISOString();

function scope(i: number, state = 'XAA_SCOPE_STATE_ENABLED'): Record<string, unknown> {
  return {
    id: `scope-${String(i).padStart(3, '0')}`,
    appId: `app-${i % 3}`,
    xaaResourceServerId: 'rs-1',
    scopeValue: `files:read:${i}`,
    displayName: `Read files ${i}`,
    classification: i === 7 ? 'XAA_SCOPE_CLASSIFICATION_CATASTROPHIC' : 'XAA_SCOPE_CLASSIFICATION_READ',
    state: i % 4 === 0 ? 'XAA_SCOPE_STATE_PENDING_REVIEW' : state,
    source: 'XAA_SCOPE_SOURCE_DISCOVERED',
    appEntitlementId: `ent-${i}`,
    createdAt: i === 3 ? '2025-01-01T10:00:00.123456Z' : iso(i),
    updatedAt: i === 5 ? '0001-01-01T00:00:00Z' : iso(i + 1),
    lastDiscoveredAt: null,
  };
}

const campaign = (i: number): unknown => ({
  accessReview: {
    id: `camp-${i}`,
    displayName: `Q${i} review`,
    state: i === 2 ? 'ACCESS_REVIEW_STATE_SOMETHING_NEW' : 'ACCESS_REVIEW_STATE_OPEN',
    accessReviewTemplateId: 'tmpl-1',
    policyId: 'pol-1',
    ownerIds: ['u-1', 'u-2'],
    createdAt: iso(i),
    completionDate: iso(i + 100),
    notificationConfig: { sendKickoff: true, sendReminders: false },
    signatureConfig: { requireSignature: true, meaningOfSignature: 'I attest' },
    scopeV2: { celExpression: { expression: 'user.department == "eng"' }, allGrants: {} },
  },
  createdByUserPath: 'users/u-1',
  policyPath: 'policies/pol-1',
});

const template = {
  id: 'tmpl-1',
  displayName: 'Quarterly',
  scopeType: 'ACCESS_REVIEW_SCOPE_TYPE_APP',
  createdAt: iso(1),
  notificationConfig: { sendClose: true },
};

const automation = (i: number): unknown => ({
  id: `auto-${i}`,
  displayName: `Leaver ${i}`,
  enabled: i % 2 === 0,
  primaryTriggerType: 'TRIGGER_TYPE_USER_PROFILE_CHANGE',
  createdAt: iso(i),
  triggers: [{ userProfileChange: { condition: 'subject.status == "terminated"' } }],
  automationSteps: [
    { stepName: 's1', stepDisplayName: 'Email manager', sendEmail: { userIdsCel: 'subject.manager_id', subject: 'Bye' } },
    { stepName: 's2', createAccessReview: { accessReviewTemplateId: 'tmpl-1', campaignName: 'Leaver review' } },
    { stepName: 's3', teleportUser: { destinationCel: 'moon' } },
  ],
});

const rule = (i: number, action: Record<string, unknown>): unknown => ({
  id: `rule-${i}`,
  displayName: `Rule ${i}`,
  priority: 10 - i,
  enabled: true,
  condition: `finding.severity >= ${i}`,
  action,
  createdAt: iso(i),
});

/** Apps, entitlements of three types (one whose type the tenant did not give), memberships and tasks. */
const apps = [
  { id: 'app-1', displayName: 'GitHub', createdAt: iso(1), deletedAt: null },
  { id: 'app-2', displayName: 'Okta', createdAt: iso(2) },
];
const entitlementRow = (id: string, appId: string, name: string, type: string | null): unknown => ({
  appEntitlementView: {
    appEntitlement: { id, appId, displayName: name, createdAt: iso(3) },
    appResourceTypePath: type ? 'expanded[0]' : '',
  },
  appResourceType: type ? { '@type': 'type.googleapis.com/c1.api.app.v1.AppResourceType', id: `rt-${type}`, displayName: type } : null,
});
const entitlements = [
  entitlementRow('ent-g', 'app-1', 'Engineers', 'Group'),
  entitlementRow('ent-r', 'app-1', 'Admin role', 'Role'),
  entitlementRow('ent-x', 'app-2', 'Mystery', null),
];
const membership = (entitlementId: string, appId: string, user: string, extra: Record<string, unknown>): unknown => ({
  appId,
  appEntitlementId: entitlementId,
  appUserId: user,
  appUser: { appUser: { id: user, displayName: `User ${user}`, email: `${user}@example.test` } },
  appEntitlementUserBindingCreatedAt: iso(4),
  grantSources: [],
  originatingTicketId: '',
  ...extra,
});
const memberships = [
  // An unset end: null in one, left out in the other; both read as no end.
  membership('ent-g', 'app-1', 'u-1', { appEntitlementUserBindingDeprovisionAt: null }),
  membership('ent-g', 'app-1', 'u-2', {}),
  membership('ent-r', 'app-1', 'u-1', {
    appEntitlementUserBindingDeprovisionAt: iso(200),
    grantSources: [{ appId: 'app-1', id: 'ent-g' }],
  }),
  membership('ent-x', 'app-2', 'u-3', { originatingTicketId: 'task-1' }),
];
const tasks = [
  {
    task: {
      id: 'task-1',
      numericId: '1001',
      displayName: 'Grant Admin role to User u-1',
      state: 'TASK_STATE_OPEN',
      type: { grant: { appId: 'app-1', appEntitlementId: 'ent-r', appUserId: 'u-1' } },
      emergencyAccess: false,
      actions: ['TASK_ACTION_TYPE_APPROVE', 'TASK_ACTION_TYPE_ESCALATE_TO_EMERGENCY_ACCESS'],
      approverIds: ['u-9'],
      form: { displayName: 'Access request details' },
      policy: { current: { id: 'step-2', state: 'POLICY_STEP_STATE_ACTIVE', approval: { approval: {} } }, history: [{ id: 'step-1' }] },
      createdAt: iso(5),
      deletedAt: null,
    },
  },
  { task: { id: 'task-2', displayName: 'Revoke', state: 'TASK_STATE_CLOSED', type: { revoke: { appId: 'app-2' } }, createdAt: iso(6) } },
];

beforeAll(() => {
  store = openStore(join(dir, 'store.sqlite'));
  run1 = storeRun(store, {
    campaigns: [campaign(1), campaign(2)],
    templates: [template],
    automations: [automation(1), automation(2)],
    toolsets: [{ id: 'ts-1', displayName: 'GitHub tools', toolCount: 12, appId: 'app-1', appEntitlementId: 'ent-9', createdAt: iso(2) }],
    'routing-rules': [
      rule(1, { acceptRisk: { duration: '720h', reason: 'known' } }),
      rule(2, { createTask: { policyId: 'pol-2' } }),
      rule(3, { snooze: { duration: '24h', reason: 'later' } }),
      rule(4, { suppress: { reason: 'noise' } }),
      rule(5, { escalateToCiso: { pager: true } }),
    ],
    scopes: Array.from({ length: 20 }, (_, i) => scope(i)),
    apps,
    entitlements,
    memberships,
    tasks,
  });
  // Run 2: one scope changed, one removed, one added; the rest as before.
  const scopes2 = Array.from({ length: 20 }, (_, i) => scope(i)).filter((s) => s.id !== 'scope-019');
  scopes2[1] = { ...scopes2[1], state: 'XAA_SCOPE_STATE_DISABLED' };
  scopes2.push(scope(20));
  run2 = storeRun(store, { scopes: scopes2 });
  const journal = new Journal(store.db);
  journal.append({
    itemId: 'item-1',
    kind: 'create-scope',
    target: 'app-1/rs-1/files:write',
    attempt: 1,
    event: 'send',
    requestDigest: 'sha256:abc',
    method: 'POST',
    path: '/api/v1/apps/app-1/xaa/scopes',
    httpStatus: 200,
    outcome: 'succeeded',
    answer: { scope: { id: 'scope-new' } },
    at: '2025-02-01T12:00:00.000Z',
  });
  journal.append({
    itemId: 'item-2',
    kind: 'escalate-task',
    target: 'task-9',
    attempt: 1,
    event: 'send',
    httpStatus: 404,
    outcome: 'failed',
    answer: { code: 5, message: 'not found' },
    at: '2025-02-01T12:00:01.000Z',
  });
});

afterAll(() => {
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const journalOf = () => new Journal(store.db).list();

async function exportKind(
  kind: ReportKind,
  extra: { asOfRun?: number; filters?: string[]; sort?: string; text?: string; view?: string } = {},
): Promise<string> {
  const name = [extra.asOfRun ?? 'now', ...(extra.filters ?? []), extra.sort ?? '', extra.text ?? ''].join('_').replace(/[^a-z0-9]/gi, '');
  const out = join(dir, `${kind}-${name}.xlsx`);
  await exportReport({ kind, out, store, journal: journalOf, connection, appVersion: '9.9.9', ...extra });
  return out;
}

const expectedSheets: Record<ReportKind, string[]> = {
  evidence: [
    'Campaigns',
    'Campaign settings',
    'Templates',
    'Template settings',
    'Automations',
    'Automation steps',
    'Step settings',
    'MCP toolsets',
    'Routing rules',
    'Scopes',
    'Access',
    'Tasks',
    'Task details',
    'Certification summary',
    'Certification',
    'Users',
    'Policies',
    'Outbox journal',
    'Review decisions',
    'Review totals',
    'Diff',
    RAW,
  ],
  campaigns: ['Campaigns', 'Campaign settings', RAW],
  templates: ['Templates', 'Template settings', RAW],
  automations: ['Automations', 'Automation steps', 'Step settings', RAW],
  toolsets: ['MCP toolsets', RAW],
  'routing-rules': ['Routing rules', RAW],
  scopes: ['Scopes', RAW],
  access: ['Access', RAW],
  tasks: ['Tasks', 'Task details', RAW],
  certification: ['Certification summary', 'Certification'],
  apps: ['Apps', RAW],
  entitlements: ['Entitlements', RAW],
  'app-users': ['App users', RAW],
  users: ['Users', RAW],
  policies: ['Policies', RAW],
  changes: ['Outbox journal'],
  'review-decisions': ['Review decisions', 'Review totals'],
  diff: ['Diff'],
};

const sheetCollection: Record<string, CollectionId> = {
  Campaigns: 'campaigns',
  Templates: 'templates',
  Automations: 'automations',
  'MCP toolsets': 'toolsets',
  'Routing rules': 'routing-rules',
  Scopes: 'scopes',
  Access: 'memberships',
  Tasks: 'tasks',
  Apps: 'apps',
  Entitlements: 'entitlements',
  'App users': 'app-users',
};

/** The collections whose objects a report's Raw sheet holds. */
const rawCollections: Partial<Record<ReportKind, CollectionId[]>> = {
  evidence: [
    'campaigns',
    'templates',
    'automations',
    'toolsets',
    'routing-rules',
    'scopes',
    'apps',
    'entitlements',
    'app-users',
    'memberships',
    'tasks',
  ],
  access: ['memberships', 'entitlements', 'apps'],
};

/** The Raw sheet's objects, parsed, by "<collection title>/<id>" (parts joined). */
function rawObjects(py: OpenpyxlDump): Map<string, unknown> {
  const texts = new Map<string, string>();
  for (const r of py.sheets.find((s) => s.name === RAW)?.data?.slice(1) ?? []) {
    const key = `${String(r[1])}/${String(r[2])}`;
    texts.set(key, (texts.get(key) ?? '') + String(r[4]));
  }
  return new Map([...texts].map(([k, t]) => [k, JSON.parse(t) as unknown]));
}

const pathOf = (obj: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), obj);

/** Excel's letter of a 0-based column index (A..Z, AA..). */
const letter = (i: number): string => (i < 26 ? '' : String.fromCharCode(64 + Math.floor(i / 26))) + String.fromCharCode(65 + (i % 26));

describe('report catalog', () => {
  it.each(REPORT_KINDS.map((k) => [k]))('%s: read back by exceljs and openpyxl, counts equal to the store, verify passes', async (kind) => {
    const file = await exportKind(kind);
    const names = ['Cover', 'Evidence', ...expectedSheets[kind], 'Dictionary', 'Locator'];

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect(wb.worksheets.map((w) => w.name)).toEqual(names);
    const py = openpyxlDump(file, true);
    expect(py.sheets.map((s) => s.name)).toEqual(names);

    for (const name of expectedSheets[kind]) {
      const ws = wb.getWorksheet(name)!;
      const pySheet = py.sheets.find((s) => s.name === name)!;
      const header = (ws.getRow(1).values as unknown[]).slice(1);
      expect(pySheet.header).toEqual(header);
      expect(pySheet.frozen).toBe('A2');
      expect(pySheet.autoFilter).toMatch(/^A1:[A-Z]+\d+$/);
      const collection = sheetCollection[name];
      const expectedRows =
        collection !== undefined
          ? store.countObjects(collection)
          : name === 'Outbox journal'
            ? journalOf().length
            : name === 'Diff'
              ? // one row per changed value, or per object added or removed
                store
                  .diff(run1, run2)
                  .reduce((n, e) => n + Math.max(1, e.fieldChanges.length) + (e.fieldCount > e.fieldChanges.length ? 1 : 0), 0)
              : name === RAW
                ? (rawCollections[kind] ?? [kind as CollectionId]).reduce((sum, c) => sum + store.countObjects(c), 0)
                : pySheet.rows;
      expect(ws.actualRowCount - 1, name).toBe(expectedRows);
      expect(pySheet.rows, name).toBe(expectedRows);
    }
    // Every "(UTC)" date cell of a sheet of objects equals the time its object has, on the Raw sheet, at
    // the column's API member, read by both readers (a time before Excel's dates: an empty cell).
    const raw = rawObjects(py);
    const members = new Map(
      py.sheets
        .find((s) => s.name === 'Dictionary')!
        .data!.slice(1)
        .map((r) => [`${String(r[1])}!${String(r[3])}`, r[6]]),
    );
    let dates = 0;
    for (const name of expectedSheets[kind].filter((n) => sheetCollection[n] && n !== 'Access')) {
      // (the Access sheet's memberships have no id of their own: its dates are checked below)
      const ws = wb.getWorksheet(name)!;
      const pySheet = py.sheets.find((s) => s.name === name)!;
      const header = (ws.getRow(1).values as unknown[]).slice(1);
      const title = descriptorOf(sheetCollection[name]!).title;
      const id = header.indexOf('ID') + 1;
      header.forEach((h, i) => {
        const member = members.get(`${name}!${String(h)}`);
        if (typeof h !== 'string' || !h.endsWith('(UTC)') || typeof member !== 'string') return;
        for (let r = 2; r <= ws.actualRowCount; r += 1) {
          const cell = ws.getRow(r).getCell(i + 1).value;
          const text = pathOf(raw.get(`${title}/${String(ws.getRow(r).getCell(id).value)}`), member);
          const pyDate = pySheet.data!.find((row) => row[0] === r)![i + 1] as { d: string } | null | undefined;
          if (typeof text === 'string' && new Date(text).getTime() >= Date.UTC(1900, 2, 1)) {
            expect((cell as Date).toISOString(), `${name}!${h}${r}`).toBe(new Date(text).toISOString());
            expect(pyDate?.d).toBe(new Date(text).toISOString());
            dates += 1;
          } else {
            expect(cell ?? null, `${name}!${h}${r}`).toBeNull();
          }
        }
      });
    }
    if (kind === 'evidence') expect(dates, 'dates compared').toBeGreaterThan(0);
    expect(rawEnumCells(py)).toEqual([]);
    // The Dictionary names every column of every data sheet, in order, with its letter and a type.
    const dictionary = py.sheets.find((s) => s.name === 'Dictionary')!;
    expect(dictionary.header).toEqual(['Sheet', 'Column', 'Header', 'Type', 'Meaning', 'API member']);
    const named = dictionary.data!.slice(1).map((r) => `${String(r[1])}!${String(r[2])} ${String(r[3])}`);
    const expected = expectedSheets[kind].flatMap((name) =>
      py.sheets.find((s) => s.name === name)!.header!.map((h, i) => `${name}!${letter(i)} ${String(h)}`),
    );
    expect(named).toEqual(expected);
    for (const r of dictionary.data!.slice(1)) expect(r[4], `${String(r[1])} ${String(r[3])} type`).toMatch(/\w/);

    // The Cover lists the Evidence sheet, each data sheet with its row count, and the Dictionary.
    const cover = py.sheets.find((s) => s.name === 'Cover')!;
    const listed = cover.data!.slice(cover.data!.findIndex((r) => r[1] === 'Sheet') + 1);
    expect(listed.map((r) => r[1])).toEqual(['Evidence', ...expectedSheets[kind], 'Dictionary']);
    for (const r of listed.slice(1)) expect(r[3], String(r[1])).toBe(py.sheets.find((s) => s.name === r[1])!.rows);

    const result = await verifyWorkbook(file);
    expect(result.status).toBe('intact');
    expect(result.sheets.map((s) => s.name)).toEqual(['Evidence', 'Cover', ...expectedSheets[kind], 'Dictionary', 'Locator']);
    expect(result.manifest.Report).toBe(kind);
    expect(result.manifest['App version']).toBe('9.9.9');
  });

  it('shows enum values as their labels, unknown ones as written and marked, and keeps every object as the API sent it', async () => {
    const py = openpyxlDump(await exportKind('evidence'), true);
    const cells = (name: string) => new Set(py.sheets.find((s) => s.name === name)!.data!.flat());
    const unknown = (value: string) => `${value} (value not known to this version)`;
    expect(cells('Scopes')).toContain(unknown('XAA_SCOPE_CLASSIFICATION_CATASTROPHIC'));
    expect(cells('Scopes')).toContain('Pending review');
    expect(cells('Campaigns')).toContain(unknown('ACCESS_REVIEW_STATE_SOMETHING_NEW'));
    expect(cells('Campaigns')).toContain('Open');
    expect(cells('Automations')).toContain('User profile change');
    expect(cells('Routing rules')).toContain(unknown('escalateToCiso'));
    expect(cells('Automation steps')).toContain(unknown('teleportUser'));
    expect(cells('Automation steps')).toContain('Send email');
    expect(cells('Tasks')).toContain('Approve, Escalate to emergency access');
    // The Raw sheet: each object of each collection, byte for byte as stored.
    const rows = py.sheets.find((s) => s.name === RAW)!.data!.slice(1);
    let objects = 0;
    for (const c of rawCollections.evidence!) {
      for (const o of store.iterateObjects(c)) {
        const parts = rows.filter((r) => r[1] === descriptorOf(c).title && r[2] === o.id);
        expect(parts.map((r) => String(r[4])).join(''), `${c}/${o.id}`).toBe(o.raw);
        objects += 1;
      }
    }
    expect(objects).toBe(rows.length);
    const scopes = JSON.stringify(rows.filter((r) => r[1] === 'Cross-app scopes'));
    expect(scopes).toContain('2025-01-01T10:00:00.123456Z');
    expect(scopes).toContain('0001-01-01T00:00:00Z');
  });

  it('names each object an id points at, where the store holds it', async () => {
    const py = openpyxlDump(await exportKind('evidence'), true);
    const table = (name: string) => {
      const rows = py.sheets.find((s) => s.name === name)!.data!;
      const header = rows[0]!.slice(1) as string[];
      return rows.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i + 1]])));
    };
    expect(table('Campaigns').map((r) => [r['Template ID'], r.Template])).toContainEqual(['tmpl-1', 'Quarterly']);
    const task = table('Tasks').find((r) => r.ID === 'task-1')!;
    expect([task['App ID'], task.App, task['Entitlement ID'], task.Entitlement]).toEqual(['app-1', 'GitHub', 'ent-r', 'Admin role']);
    // An id the store holds no object for: the id, and an empty name.
    const toolset = table('MCP toolsets')[0]!;
    expect([toolset['App'], toolset['Entitlement ID'], toolset.Entitlement ?? null]).toEqual(['GitHub', 'ent-9', null]);
  });

  it('access: who holds what, with app and entitlement names, the type, and null or omitted ends alike', async () => {
    const file = await exportKind('access');
    for (const py of [openpyxlDump(file, true)]) {
      const rows = py.sheets.find((s) => s.name === 'Access')!.data!;
      const header = rows[0]!.slice(1) as string[];
      const at = (row: unknown[], h: string) => row[header.indexOf(h) + 1];
      const byKey = Object.fromEntries(rows.slice(1).map((r) => [`${String(at(r, 'Entitlement ID'))}:${String(at(r, 'App user ID'))}`, r]));
      expect(Object.keys(byKey).sort()).toEqual(['ent-g:u-1', 'ent-g:u-2', 'ent-r:u-1', 'ent-x:u-3']);
      const g1 = byKey['ent-g:u-1']!;
      expect([at(g1, 'App'), at(g1, 'Entitlement'), at(g1, 'Entitlement type'), at(g1, 'Memberships managed')]).toEqual([
        'GitHub',
        'Engineers',
        'Group',
        true,
      ]);
      expect([at(g1, 'App user'), at(g1, 'App user email'), at(g1, 'Granted')]).toEqual(['User u-1', 'u-1@example.test', 'direct']);
      // null and omitted ends: the same empty cells.
      for (const key of ['ent-g:u-1', 'ent-g:u-2']) expect(at(byKey[key]!, 'Until (UTC)') ?? null, key).toBeNull();
      const r1 = byKey['ent-r:u-1']!;
      expect([at(r1, 'Entitlement type'), at(r1, 'Memberships managed'), at(r1, 'Granted'), at(r1, 'Granted through')]).toEqual([
        'Role',
        false,
        'inherited',
        'ent-g',
      ]);
      expect((at(r1, 'Until (UTC)') as { d: string }).d).toBe(iso(200));
      // A type the tenant did not give: empty, not "not managed".
      const x = byKey['ent-x:u-3']!;
      expect([at(x, 'App'), at(x, 'Entitlement type') ?? null, at(x, 'Memberships managed') ?? null, at(x, 'Granting task')]).toEqual([
        'Okta',
        null,
        null,
        'task-1',
      ]);
      // The Evidence sheet states the three collections the sheet reads.
      const evidence = JSON.stringify(py.sheets.find((s) => s.name === 'Evidence')!.data);
      for (const title of ['Memberships', 'Entitlements', 'Apps']) expect(evidence).toContain(title);
    }
    const filtered = openpyxlDump(await exportKind('access', { filters: ['app=app-2'] }));
    expect(filtered.sheets.find((s) => s.name === 'Access')!.rows).toBe(1);
  });

  it('tasks: type, state, current step, emergency access and what the task allows', async () => {
    const py = openpyxlDump(await exportKind('tasks'), true);
    const rows = py.sheets.find((s) => s.name === 'Tasks')!.data!;
    const header = rows[0]!.slice(1) as string[];
    const at = (row: unknown[], h: string) => row[header.indexOf(h) + 1];
    const task = rows.slice(1).find((r) => at(r, 'ID') === 'task-1')!;
    expect([at(task, 'Type'), at(task, 'State'), at(task, 'Can escalate'), at(task, 'Emergency access')]).toEqual([
      'Grant',
      'Open',
      true,
      false,
    ]);
    expect([at(task, 'Current step'), at(task, 'Current step kind'), at(task, 'Steps done'), at(task, 'Form')]).toEqual([
      'step-2',
      'Approval',
      1,
      'Access request details',
    ]);
    const other = rows.slice(1).find((r) => at(r, 'ID') === 'task-2')!;
    expect([at(other, 'Type'), at(other, 'Can escalate'), at(other, 'Deleted (UTC)') ?? null]).toEqual(['Revoke', false, null]);
  });

  it('lists routing rules in priority order with their action and parameters', async () => {
    const py = openpyxlDump(await exportKind('routing-rules'), true);
    const rows = py.sheets.find((s) => s.name === 'Routing rules')!.data!;
    const header = rows[0]!.slice(1) as string[];
    const at = (row: unknown[], h: string) => row[header.indexOf(h) + 1];
    const body = rows.slice(1);
    expect(body.map((r) => at(r, 'Priority'))).toEqual([5, 6, 7, 8, 9]);
    expect(body.map((r) => at(r, 'Order'))).toEqual([1, 2, 3, 4, 5]);
    expect(body.map((r) => at(r, 'Action'))).toEqual([
      'escalateToCiso (value not known to this version)',
      'Suppress',
      'Snooze',
      'Create task',
      'Accept risk',
    ]);
    expect(at(body[4]!, 'Action parameters')).toBe('duration=30 days; reason=known');
  });

  it('one row per trigger and step, with kind, name, CEL and targets', async () => {
    const py = openpyxlDump(await exportKind('automations'), true);
    const rows = py.sheets.find((s) => s.name === 'Automation steps')!.data!;
    expect(rows.length - 1).toBe(8);
    const email = rows.find((r) => r.includes('Send email'))!;
    expect(email).toContain('Email manager');
    expect(email.join(' ')).toContain('subject.manager_id');
    expect(rows.find((r) => r.includes('Create access review'))!.join(' ')).toContain('createAccessReview.accessReviewTemplateId=tmpl-1');
  });

  it('filters and "as of" a completed run: the sheet equals the store read the same way', async () => {
    const filtered = openpyxlDump(await exportKind('scopes', { filters: ['state=XAA_SCOPE_STATE_PENDING_REVIEW', 'app=app-1'] }));
    const expected = store.countObjects('scopes', { filters: { state: 'XAA_SCOPE_STATE_PENDING_REVIEW', appId: 'app-1' } });
    expect(expected).toBeGreaterThan(0);
    expect(filtered.sheets.find((s) => s.name === 'Scopes')!.rows).toBe(expected);

    const asOfFile = await exportKind('scopes', { asOfRun: run1 });
    const asOf = openpyxlDump(asOfFile, true);
    expect(asOf.sheets.find((s) => s.name === 'Scopes')!.rows).toBe(store.countObjects('scopes', { asOfRun: run1 }));
    expect(JSON.stringify(asOf.sheets.find((s) => s.name === 'Scopes')!.data)).toContain('scope-019');
    expect(JSON.stringify(asOf.sheets.find((s) => s.name === 'Scopes')!.data)).not.toContain('scope-020');
    const evidence = JSON.stringify(asOf.sheets.find((s) => s.name === 'Evidence')!.data);
    expect(evidence).toContain(`snapshot of completed run ${run1}`);
    expect((await verifyWorkbook(asOfFile)).manifest['As of sync run']).toBe(String(run1));
  });

  it("a view's filters, text and sort are the report's parameters: its rows in that order, the cover and Evidence sheet state them", async () => {
    const view = { filters: ['app=app-1'], text: 'read', sort: 'createdAt:desc', view: 'the Cross-app scopes list' };
    const file = await exportKind('scopes', view);
    const py = openpyxlDump(file, true);
    const expected = store
      .listObjects('scopes', { filters: { appId: 'app-1' }, text: 'read', sort: { column: 'createdAt', dir: 'desc' } })
      .rows.map((o) => o.id);
    expect(expected.length).toBeGreaterThan(1);
    const rows = py.sheets.find((s) => s.name === 'Scopes')!.data!.slice(1);
    expect(rows.map((r) => r[1])).toEqual(expected);
    expect(
      py.sheets
        .find((s) => s.name === RAW)!
        .data!.slice(1)
        .map((r) => r[2]),
    ).toEqual(expected);
    const cover = Object.fromEntries(py.sheets.find((s) => s.name === 'Cover')!.data!.map((r) => [r[1], r[2]]));
    expect(cover.Filters).toBe('Cross-app scopes: App (appId) = app-1');
    expect(cover['Text filter']).toBe('Cross-app scopes: read (objects whose text holds every word)');
    expect(cover.Sort).toBe('Cross-app scopes: by Created (createdAt), descending, then by id');
    expect(cover.View).toBe('the Cross-app scopes list');
    const evidence = py.sheets.find((s) => s.name === 'Evidence')!.data!;
    const parameters = JSON.parse(String(evidence.find((r) => r[1] === 'Parameters')![2])) as Record<string, unknown>;
    expect(parameters).toMatchObject({ text: { scopes: 'read' }, sort: { scopes: { column: 'createdAt', dir: 'desc' } } });
    const scopesLine = evidence.find((r) => r[1] === 'Cross-app scopes')!;
    expect(scopesLine).toContain(expected.length);
    expect((await verifyWorkbook(file)).status).toBe('intact');
    // Without a sort: the sheet's own order, said so.
    const plain = Object.fromEntries(
      openpyxlDump(await exportKind('scopes'), true)
        .sheets.find((s) => s.name === 'Cover')!
        .data!.map((r) => [r[1], r[2]]),
    );
    expect([plain.Sort, plain['Text filter'], plain.View]).toEqual(["each sheet's own order (objects by id)", undefined, undefined]);
  });

  it('rejects a sort by a column the report does not have, and a text filter with control characters', async () => {
    await expect(exportKind('scopes', { sort: 'colour' })).rejects.toThrow(/no collection of this report has a column 'colour' to sort by/);
    await expect(exportKind('scopes', { sort: 'state:sideways' })).rejects.toThrow(/a sort is COLUMN, COLUMN:asc or COLUMN:desc/);
    await expect(exportKind('scopes', { text: 'a\u0007b' })).rejects.toThrow(/without control characters/);
    await expect(exportKind('changes', { text: 'x' })).rejects.toThrow(/reads no collection/);
  });

  it('rejects a filter no collection of the report has, and an unknown run', async () => {
    await expect(exportKind('scopes', { filters: ['colour=blue'] })).rejects.toThrow(/no collection of this report has a column 'colour'/);
    await expect(exportKind('scopes', { asOfRun: 999 })).rejects.toThrow(/999/);
  });

  it('the diff report shows what changed between the two runs', async () => {
    const py = openpyxlDump(await exportKind('diff'), true);
    const rows = py.sheets.find((s) => s.name === 'Diff')!.data!.slice(1);
    const byId = Object.fromEntries(rows.map((r) => [r[2], r[4]]));
    expect(byId).toMatchObject({ 'scope-001': 'modified', 'scope-019': 'removed', 'scope-020': 'added' });
  });

  it('the Evidence sheet flags a collection never synced or interrupted', async () => {
    const other = openStore(join(dir, 'partial.sqlite'));
    try {
      storeRun(other, { scopes: [scope(1)] });
      // a later run stops half-way through scopes, after storing a page
      const { runId } = other.sync.beginRun(['scopes']);
      other.sync.startWalk(runId, 'scopes');
      const walk = other.sync.walk(runId, 'scopes').walk;
      other.sync.commitPage(runId, 'scopes', walk, [prepareObject('scopes', scope(2))], 'next', new Date().toISOString());
      other.sync.stopWalk(runId, 'scopes', 'failed', 'HTTP 503');
      other.sync.finishRun(runId);
      const out = join(dir, 'partial.xlsx');
      const result = await exportReport({ kind: 'evidence', out, store: other, connection, appVersion: '9.9.9' });
      expect(result.complete).toBe(false);
      const rows = openpyxlDump(out, true).sheets.find((s) => s.name === 'Evidence')!.data!;
      const line = (title: string) => rows.find((r) => r[1] === title)!;
      expect(line('Cross-app scopes')).toContain('NO');
      expect(line('Cross-app scopes').join(' ')).toContain('HTTP 503');
      expect(line('Access review campaigns')).toContain('never fully synced');
      expect(rows.find((r) => r[1] === 'All collections complete')![2]).toMatch(/^NO: /);
    } finally {
      other.close();
    }
  });
});
