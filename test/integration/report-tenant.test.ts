import ExcelJS from 'exceljs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/main/api/client';
import { openOutbox } from '../../src/main/outbox/queue';
import { exportReport, verifyWorkbook, type ExportResult } from '../../src/main/reports';
import { openStore, type Store } from '../../src/main/store/db';
import { syncTenant } from '../../src/main/sync/engine';
import { XAA_SCOPE_CLASSIFICATION_VALUES, XAA_SCOPE_SOURCE_VALUES, XAA_SCOPE_STATE_VALUES } from '../../src/shared/enums';
import { startTenant, type ReferenceTenant } from '../../src/tenant/server';
import { isManagedKind, omitsUnset, RESOURCE_TYPE_NAMES } from '../../src/tenant/views';
import { openpyxlDump, SYSTEM_PYTHON } from '../helpers/openpyxl';
import { RAW, rawEnumCells } from '../helpers/report-cells';
import { runCli } from './sync.helpers';

/** The evidence workbook of a real sync of the reference tenant, read back by exceljs and openpyxl. */
const dir = mkdtempSync(join(tmpdir(), 'attest-report-tenant-'));
let tenant: ReferenceTenant;
let store: Store;
let result: ExportResult;
const file = join(dir, 'evidence.xlsx');

const SHEET_OF = {
  campaigns: 'Campaigns',
  templates: 'Templates',
  automations: 'Automations',
  toolsets: 'MCP toolsets',
  'routing-rules': 'Routing rules',
  scopes: 'Scopes',
  memberships: 'Access',
  tasks: 'Tasks',
} as const;

beforeAll(async () => {
  tenant = await startTenant({ port: 0, seed: 7 });
  store = openStore(join(dir, 'store.sqlite'));
  const api = createApiClient({ clientId: tenant.clientId, clientSecret: tenant.clientSecret, serverUrl: tenant.url });
  const sync = await syncTenant({ store, api });
  expect(sync.status).toBe('completed');
  result = await exportReport({
    kind: 'evidence',
    out: file,
    store,
    journal: () => openOutbox(store).journal(),
    connection: { name: 'reference', tenantHost: new URL(tenant.url).host, clientId: tenant.clientId, serverUrl: tenant.url },
    appVersion: '0.0.0-test',
  });
});

afterAll(async () => {
  store?.close();
  await tenant?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('evidence workbook of a synced reference tenant', () => {
  it('has every sheet, with row counts equal to the store, read by exceljs and openpyxl', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const py = openpyxlDump(file);
    const names = [
      'Cover',
      'Evidence',
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
      'Dictionary',
      'Locator',
    ];
    expect(wb.worksheets.map((w) => w.name)).toEqual(names);
    expect(py.sheets.map((s) => s.name)).toEqual(names);
    for (const [collection, sheet] of Object.entries(SHEET_OF)) {
      const inStore = store.countObjects(collection as keyof typeof SHEET_OF);
      expect(inStore, collection).toBeGreaterThan(0);
      expect(wb.getWorksheet(sheet)!.actualRowCount - 1, sheet).toBe(inStore);
      expect(py.sheets.find((s) => s.name === sheet)!.rows, sheet).toBe(inStore);
      expect(py.sheets.find((s) => s.name === sheet)!.header).toEqual((wb.getWorksheet(sheet)!.getRow(1).values as unknown[]).slice(1));
      const evidence = result.collections.find((c) => c.collection === collection)!;
      // Templates have no list on the API: they are only ever the referenced ones, so never complete.
      const complete = collection !== 'templates';
      expect(evidence, collection).toMatchObject({ complete, rowsInStore: inStore, objectsInStore: inStore });
    }
    // one row per trigger and per step of every automation
    let parts = 0;
    for (const a of store.iterateObjects('automations')) {
      const j = a.json as Record<string, unknown[] | undefined>;
      parts +=
        (j.triggers?.length ?? 0) +
        (j.automationSteps?.length ?? 0) +
        (j.draftTriggers?.length ?? 0) +
        (j.draftAutomationSteps?.length ?? 0);
    }
    expect(py.sheets.find((s) => s.name === 'Automation steps')!.rows).toBe(parts);
    expect((await verifyWorkbook(file)).status).toBe('intact');
  });

  it('says how each collection was gathered: templates are partial (referenced or added), the others full walks that ended', async () => {
    // The tenant holds a template no campaign or automation names: the store cannot have it.
    expect(store.countObjects('templates')).toBeLessThan(tenant.data.templates.size);
    expect(result.complete).toBe(false);

    const rows = openpyxlDump(file, true).sheets.find((s) => s.name === 'Evidence')!.data!;
    const header = rows.find((r) => r[1] === 'Collection')!;
    const at = (name: string): number => header.indexOf(name);
    const line = (title: string): unknown[] => rows.find((r) => r[1] === title)!;
    const templates = line('Access review templates');
    expect(templates[at('Gathered')]).toBe(
      'referenced or added: the API has no list of templates; those named by access review campaigns and automations, and those added by id, are fetched one by one',
    );
    expect(templates[at('Complete')]).toBe('NO');
    expect(templates[at('Note')]).toMatch(/^partial: referenced or added: the API has no list of templates \(as of run \d+\)$/);
    for (const title of ['Access review campaigns', 'Automations', 'Cross-app scopes']) {
      expect(line(title)[at('Gathered')], title).toBe('full walk of the list');
      expect(line(title)[at('Complete')], title).toBe('yes');
      expect(line(title)[at('Note')], title).toMatch(/^complete as of run \d+$/);
    }
    const overall = String(rows.find((r) => r[1] === 'All collections complete')![2]);
    expect(overall).toMatch(
      /^NO: Access review templates \(partial: referenced or added: the API has no list of templates \(as of run \d+\)\)$/,
    );

    // `attest runs` says it in the same words.
    const runs = await runCli(['runs', '--store', store.file]);
    expect(runs.code).toBe(0);
    const templatesLine = runs.out.split('\n').find((l) => l.startsWith('templates '))!;
    expect(templatesLine).toContain('referenced or added');
    expect(templatesLine).toContain(String(templates[at('Note')]));
    expect(runs.out).toContain(`templates: ${String(templates[at('Gathered')])}`);
    expect(runs.out.split('\n').find((l) => l.startsWith('scopes '))).toMatch(/full walk +complete as of run \d+$/);
    const json = JSON.parse((await runCli(['runs', '--store', store.file, '--json'])).out) as {
      collections: { collection: string; completeness: { complete: boolean; gathered: string } }[];
    };
    expect(json.collections.find((c) => c.collection === 'templates')!.completeness).toMatchObject({
      complete: false,
      gathered: templates[at('Gathered')],
    });
  });

  it('writes real UTC date cells equal to the API text, enum values as labels, unknown ones as written and marked', async () => {
    const py = openpyxlDump(file, true);
    const scopes = py.sheets.find((s) => s.name === 'Scopes')!;
    const header = scopes.data![0]!.slice(1) as string[];
    const createdAt = header.indexOf('Created (UTC)') + 1;
    const id = header.indexOf('ID') + 1;
    expect(createdAt).toBeGreaterThan(0);
    let dates = 0;
    for (const row of scopes.data!.slice(1)) {
      const text = store.getObject('scopes', String(row[id]))!.columns.createdAt;
      if (typeof text !== 'string') continue;
      expect((row[createdAt] as { d: string }).d).toBe(new Date(text).toISOString());
      dates += 1;
    }
    expect(dates).toBeGreaterThan(0);
    expect(rawEnumCells(py)).toEqual([]);

    const known = new Set<string>([...XAA_SCOPE_STATE_VALUES, ...XAA_SCOPE_CLASSIFICATION_VALUES, ...XAA_SCOPE_SOURCE_VALUES]);
    const unknown = new Set<string>();
    for (const s of store.iterateObjects('scopes')) {
      for (const k of ['state', 'classification', 'source']) {
        const v = s.columns[k];
        if (typeof v === 'string' && !known.has(v)) unknown.add(v);
      }
    }
    expect(unknown.size, 'the reference tenant serves some enum values the spec does not list').toBeGreaterThan(0);
    const cells = new Set(scopes.data!.flat().filter((v): v is string => typeof v === 'string'));
    for (const v of unknown) expect(cells.has(`${v} (value not known to this version)`), v).toBe(true);
  });

  it('access: one row per membership the tenant serves, with its entitlement type; null and omitted ends export alike', () => {
    const py = openpyxlDump(file, true);
    const rows = py.sheets.find((s) => s.name === 'Access')!.data!;
    const header = rows[0]!.slice(1) as string[];
    const at = (row: unknown[], h: string) => row[header.indexOf(h) + 1];
    const d = tenant.data;
    expect(rows.length - 1).toBe(d.memberships.size);
    const byKey = new Map(rows.slice(1).map((r) => [`${String(at(r, 'Entitlement ID'))}:${String(at(r, 'App user ID'))}`, r]));
    const forms = new Set<string>();
    for (const m of d.memberships.values()) {
      const row = byKey.get(`${m.appEntitlementId}:${m.appUserId}`)!;
      const e = d.entitlements.get(m.appEntitlementId)!;
      expect(at(row, 'Entitlement type')).toBe(RESOURCE_TYPE_NAMES[e.kind]);
      expect(at(row, 'Memberships managed')).toBe(isManagedKind(e.kind));
      expect(at(row, 'App')).toBe(d.apps.get(m.appId)!.displayName);
      expect((at(row, 'Since (UTC)') as { d: string }).d).toBe(new Date(m.createdAt).toISOString());
      if (m.deprovisionAt) {
        expect((at(row, 'Until (UTC)') as { d: string }).d).toBe(new Date(m.deprovisionAt).toISOString());
      } else {
        // Served as null or left out: the same empty cells.
        expect(at(row, 'Until (UTC)') ?? null).toBeNull();
        forms.add(omitsUnset(7, m.id) ? 'omitted' : 'null');
      }
    }
    expect([...forms].sort()).toEqual(['null', 'omitted']);
    const tasks = py.sheets.find((s) => s.name === 'Tasks')!;
    expect(tasks.rows).toBe([...d.tasks.values()].filter((t) => !t.deletedAt).length);
  });

  it('never carries the client secret or its private key', () => {
    const xml = execFileSync(
      SYSTEM_PYTHON,
      [
        '-c',
        'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nsys.stdout.write("".join(z.read(n).decode("utf-8", "replace") for n in z.namelist()))',
        file,
      ],
      { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    expect(xml).toContain(tenant.clientId);
    const jwkText = tenant.clientSecret.split(':').at(-1)!;
    const jwk = JSON.parse(Buffer.from(jwkText, 'base64url').toString('utf8')) as { d: string };
    expect(jwk.d.length).toBeGreaterThan(20);
    expect(xml).not.toContain(tenant.clientSecret);
    expect(xml).not.toContain(jwkText);
    expect(xml).not.toContain(jwk.d);
  });
});
