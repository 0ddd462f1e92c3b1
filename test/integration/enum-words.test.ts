/**
 * One way to write an enum value, in every front: the app's cells (renderer/components/format.ts),
 * the CLI's tables (`attest list`, `attest show`) and the workbooks' data sheets. Every member of the
 * OpenAPI document's enumerations of the synced fields, and a value no enumeration lists, read the
 * same in all three; and on a synced reference tenant, a scope's cells agree in the CLI's table,
 * the workbook and the app.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { enumCell } from '../../src/cli/enum-cells';
import { COLLECTIONS, type ColumnDef } from '../../src/main/collections';
import { enumWords as workbookWords } from '../../src/main/reports/columns';
import { enumCellText as appText } from '../../src/renderer/components/format';
import { getConnection } from '../../src/main/app/saved-connections';
import { collectionInfos, columnsOf, overviewCharts } from '../../src/main/rpc/read-models';
import { openStore } from '../../src/main/store/db';
import { ENUMS, enumPrefix, isEnumName, type EnumName } from '../../src/shared/enums';
import { UNKNOWN_ENUM_MARK } from '../../src/shared/enum-words';
import { isKindsName, ONEOF_KINDS } from '../../src/shared/oneof-kinds';
import { openpyxlDump } from '../helpers/openpyxl';
import { useSyncedTenant } from './synced-tenant';

/** Every `enum` list of the vendor's OpenAPI document, wherever it sits. */
function documentEnums(): string[][] {
  const doc: unknown = JSON.parse(readFileSync(new URL('../fixtures/openapi/c1-openapi.subset.json', import.meta.url), 'utf8'));
  const found: string[][] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (Array.isArray(record.enum) && record.enum.every((v) => typeof v === 'string')) found.push(record.enum as string[]);
      Object.values(record).forEach(walk);
    }
  };
  walk(doc);
  return found;
}

/** The enum columns of the synced collections: each with the enumeration it names. */
const ENUM_COLUMNS: { collection: string; column: ColumnDef; enumName: EnumName }[] = COLLECTIONS.flatMap((d) =>
  d.columns.flatMap((column) =>
    column.type === 'enum' && column.enumName && isEnumName(column.enumName)
      ? [{ collection: d.id, column, enumName: column.enumName }]
      : [],
  ),
);

/** The columns holding a oneof's kind that name the kinds this version knows (a routing rule's action). */
const KIND_COLUMNS = COLLECTIONS.flatMap((d) =>
  d.columns.flatMap((column) =>
    column.enumName && isKindsName(column.enumName) ? [{ collection: d.id, column, kinds: ONEOF_KINDS[column.enumName] }] : [],
  ),
);

/** The members the OpenAPI document lists for an enumeration (the lists sharing a value with ours), and ours. */
function membersOf(enumName: EnumName, lists: string[][]): string[] {
  const ours = ENUMS[enumName] as readonly string[];
  const specific = ours.filter((v) => !v.endsWith('UNSPECIFIED') && v !== 'UNKNOWN');
  const theirs = lists.filter((list) => list.some((v) => specific.includes(v))).flat();
  return [...new Set([...theirs, ...ours])];
}

/** The enum columns that name no enumeration: they hold enum constants or oneof kinds (a task's type, a rule's action). */
const OTHER_ENUM_COLUMNS = COLLECTIONS.flatMap((d) =>
  d.columns.filter((c) => c.type === 'enum' && !c.enumName).map((column) => ({ collection: d.id, column })),
);

/** How the three fronts write `value` of `column`. */
function threeWays(column: ColumnDef, value: string) {
  return {
    app: appText(column.enumName, value).label,
    cli: enumCell(value, column),
    workbook: workbookWords(column, value),
  };
}

describe('an enum value reads the same in the app, the CLI and the workbook', () => {
  it('every member of the OpenAPI enumerations of the synced fields, and an unknown value, marked the same way', () => {
    const lists = documentEnums();
    expect(ENUM_COLUMNS.length).toBeGreaterThan(8);
    let checked = 0;
    for (const { collection, column, enumName } of ENUM_COLUMNS) {
      const members = membersOf(enumName, lists);
      for (const value of members) {
        const ways = threeWays(column, value);
        expect(ways.cli, `${collection}.${column.name} ${value}`).toBe(ways.app);
        expect(ways.workbook, `${collection}.${column.name} ${value}`).toBe(ways.app);
        // A listed value never shows its raw name.
        expect(ways.app, `${collection}.${column.name} ${value}`).not.toBe(value);
        checked += 1;
      }
      const unknown = `${enumPrefix(ENUMS[enumName])}QUANTUM_LEAP`;
      const ways = threeWays(column, unknown);
      expect(ways).toEqual({
        app: `${unknown}${UNKNOWN_ENUM_MARK}`,
        cli: `${unknown}${UNKNOWN_ENUM_MARK}`,
        workbook: `${unknown}${UNKNOWN_ENUM_MARK}`,
      });
      expect(appText(column.enumName, unknown).known).toBe(false);
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('columns naming no enumeration: a constant by the enumeration that lists it (or marked), a oneof kind in words', () => {
    expect(OTHER_ENUM_COLUMNS.length).toBeGreaterThan(3);
    const expected: Record<string, string> = {
      APP_USER_STATUS_ENABLED: 'Enabled',
      ACCESS_REVIEW_TASK_COLUMN_APP: 'App',
      SOMETHING_NEW_HERE: `SOMETHING_NEW_HERE${UNKNOWN_ENUM_MARK}`,
      createTask: 'Create task',
      suppress: 'Suppress',
    };
    for (const { collection, column } of OTHER_ENUM_COLUMNS)
      for (const [value, words] of Object.entries(expected))
        expect(threeWays(column, value), `${collection}.${column.name} ${value}`).toEqual({ app: words, cli: words, workbook: words });
  });

  it('a oneof kind of a column naming its kinds: a known kind in words, any other as written and marked', () => {
    expect(KIND_COLUMNS.map((k) => `${k.collection}.${k.column.name}`)).toEqual(
      expect.arrayContaining(['routing-rules.actionKind', 'tasks.taskType']),
    );
    for (const { collection, column, kinds } of KIND_COLUMNS) {
      for (const kind of kinds) {
        const ways = threeWays(column, kind);
        expect(ways.app, `${collection}.${column.name} ${kind}`).not.toBe(kind);
        expect(ways, `${collection}.${column.name} ${kind}`).toEqual({ app: ways.app, cli: ways.app, workbook: ways.app });
        expect(appText(column.enumName, kind).known).toBe(true);
      }
      const marked = `escalateToCiso${UNKNOWN_ENUM_MARK}`;
      expect(threeWays(column, 'escalateToCiso')).toEqual({ app: marked, cli: marked, workbook: marked });
      expect(appText(column.enumName, 'escalateToCiso').known).toBe(false);
    }
    expect(threeWays(KIND_COLUMNS.find((k) => k.column.name === 'actionKind')!.column, 'acceptRisk').app).toBe('Accept risk');
  });

  it("a task's type the API adds later is kept as sent, not as 'unknown', so every front can name it", () => {
    const taskType = COLLECTIONS.find((d) => d.id === 'tasks')!.columns.find((c) => c.name === 'taskType')!;
    expect(taskType.value!({ task: { type: { certify: {} } } })).toBe('certify');
    expect(taskType.value!({ task: { type: { attest: { appId: 'a' } } } })).toBe('attest');
    expect(threeWays(taskType, 'attest').app).toBe(`attest${UNKNOWN_ENUM_MARK}`);
    expect(threeWays(taskType, 'certify')).toEqual({ app: 'Certify', cli: 'Certify', workbook: 'Certify' });
  });
});

describe('on a synced reference tenant', () => {
  const synced = useSyncedTenant({ seed: 61, name: 'words' });
  const file = () => join(synced.dir(), 'scopes.xlsx');
  const rulesFile = () => join(synced.dir(), 'routing-rules.xlsx');
  let frozen = '';
  let escalating = '';

  beforeAll(async () => {
    // One state the enumeration does not list, beside the tenant's own unknown classification.
    const data = synced.tenant().data;
    frozen = String([...data.scopes.values()][3]!.id);
    data.touch('scopes', frozen, { state: 'XAA_SCOPE_STATE_FROZEN' });
    // A routing rule whose action is a member this version does not know.
    escalating = String([...data.routingRules.values()][1]!.id);
    const unknownAction: Record<string, unknown> = { escalateToCiso: { pager: true } };
    data.touch('routingRules', escalating, { action: unknownAction });
    const sync = await synced.cli('sync');
    expect(sync.code, sync.err).toBe(0);
    const exported = await synced.cli('export', 'scopes', '--out', file());
    expect(exported.code, exported.err).toBe(0);
    const rules = await synced.cli('export', 'routing-rules', '--out', rulesFile());
    expect(rules.code, rules.err).toBe(0);
  }, 120_000);

  it("a scope's classification, state and source: the CLI's table, the workbook's cells and the app's labels agree", async () => {
    const listed = await synced.cli('list', 'scopes', '--columns', 'id,classification,state,source');
    expect(listed.code, listed.err).toBe(0);
    const [, ...lines] = listed.out.trimEnd().split('\n');
    const cliRows = new Map(
      lines
        .map((line) => line.trim().split(/ {2,}/))
        .filter((cells) => cells.length === 4)
        .map(([id, ...cells]) => [id!, cells]),
    );
    const sheet = openpyxlDump(file(), true).sheets.find((s) => s.name === 'Scopes')!.data!;
    const header = sheet[0]!.slice(1) as string[];
    const at = (row: unknown[], h: string) => row[header.indexOf(h) + 1] as string | null;
    const descriptor = COLLECTIONS.find((d) => d.id === 'scopes')!;
    const column = (name: string) => descriptor.columns.find((c) => c.name === name)!;
    const seen = new Set<string>();
    for (const row of sheet.slice(1)) {
      const id = String(at(row, 'ID'));
      const raw = synced.tenant().data.scopes.get(id) as Record<string, string> | undefined;
      if (!raw) continue;
      const cli = cliRows.get(id);
      expect(cli, id).toBeDefined();
      (['classification', 'state', 'source'] as const).forEach((name, i) => {
        const app = appText(column(name).enumName, raw[name]!).label;
        expect(cli![i], `${id} ${name} in the CLI`).toBe(app);
        expect(at(row, column(name).label), `${id} ${name} in the workbook`).toBe(app);
        seen.add(raw[name]!);
      });
    }
    expect(seen).toContain('XAA_SCOPE_CLASSIFICATION_QUANTUM');
    expect(seen).toContain('XAA_SCOPE_STATE_FROZEN');
    for (const value of [...ENUMS.XaaScopeClassification, ...ENUMS.XaaScopeState, ...ENUMS.XaaScopeSource]) expect(seen).toContain(value);
    expect(listed.out).toContain(`XAA_SCOPE_STATE_FROZEN${UNKNOWN_ENUM_MARK}`);

    const shown = await synced.cli('show', 'scopes', frozen, '-o', 'table');
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toMatch(new RegExp(`state +XAA_SCOPE_STATE_FROZEN \\(value not known to this version\\)`));
  });

  it("a routing rule's action, known or not: the CLI's table, the workbook's cell, the app's cell, filter and chart agree", async () => {
    const marked = `escalateToCiso${UNKNOWN_ENUM_MARK}`;
    const rules = [...synced.tenant().data.routingRules.values()];
    const suppressing = rules.filter((r) => r.action && 'suppress' in r.action).map((r) => String(r.id));
    expect(suppressing.length).toBeGreaterThan(0);

    const listed = await synced.cli('list', 'routing-rules', '--columns', 'id,actionKind');
    expect(listed.code, listed.err).toBe(0);
    const cliRows = new Map(
      listed.out
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.trim().split(/ {2,}/))
        .map(([id, action]) => [id!, action]),
    );
    expect(cliRows.get(escalating)).toBe(marked);
    for (const id of suppressing) expect(cliRows.get(id)).toBe('Suppress');
    // CSV and JSON keep the member as sent.
    const csv = await synced.cli('list', 'routing-rules', '--columns', 'id,actionKind', '-o', 'csv');
    expect(csv.out).toContain(`${escalating},escalateToCiso\n`);

    const sheet = openpyxlDump(rulesFile(), true).sheets.find((s) => s.name === 'Routing rules')!.data!;
    const header = sheet[0]!.slice(1) as string[];
    const cellOf = (id: string) => sheet.find((row) => row[header.indexOf('ID') + 1] === id)?.[header.indexOf('Action') + 1];
    expect(cellOf(escalating)).toBe(marked);
    for (const id of suppressing) expect(cellOf(id)).toBe('Suppress');

    // The app: the column the list gets, its cell and filter choice, and the overview's chart.
    const column = columnsOf('routing-rules').find((c) => c.key === 'actionKind')!;
    expect(appText(column.enumName, 'escalateToCiso')).toEqual({ label: marked, known: false, title: 'Unknown value: escalateToCiso' });
    expect(appText(column.enumName, 'suppress').label).toBe('Suppress');
    const store = openStore(getConnection(synced.dataDir(), 'words').storeFile, { readonly: true });
    try {
      const info = collectionInfos(store).find((c) => c.id === 'routing-rules')!;
      expect(info.filterValues.actionKind).toContain('escalateToCiso');
      expect(info.filterValues.actionKind).toContain('suppress');
      const chart = overviewCharts(store).routingRulesByAction;
      expect(chart.find((d) => d.key === 'escalateToCiso')?.count).toBe(1);
      expect(chart.find((d) => d.key === 'suppress')?.count).toBe(suppressing.length);
    } finally {
      store.close();
    }

    // A filter by a kind still finds exactly the rules of that kind, unknown kinds included.
    for (const [kind, ids] of [
      ['suppress', suppressing],
      ['escalateToCiso', [escalating]],
    ] as const) {
      const filtered = await synced.cli('list', 'routing-rules', '--filter', `actionKind=${kind}`, '-o', 'json');
      expect(filtered.code, filtered.err).toBe(0);
      const ruleIds = (JSON.parse(filtered.out) as { rows: { id: string }[] }).rows.map((r) => r.id);
      expect(ruleIds.sort()).toEqual([...ids].sort());
    }
  });
});
