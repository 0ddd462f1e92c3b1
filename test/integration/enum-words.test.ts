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
import { ENUMS, enumPrefix, type EnumName } from '../../src/shared/enums';
import { UNKNOWN_ENUM_MARK } from '../../src/shared/enum-words';
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
  d.columns.filter((c) => c.type === 'enum' && c.enumName).map((column) => ({ collection: d.id, column, enumName: column.enumName! })),
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
});

describe('on a synced reference tenant', () => {
  const synced = useSyncedTenant({ seed: 61, name: 'words' });
  const file = () => join(synced.dir(), 'scopes.xlsx');
  let frozen = '';

  beforeAll(async () => {
    // One state the enumeration does not list, beside the tenant's own unknown classification.
    const data = synced.tenant().data;
    frozen = String([...data.scopes.values()][3]!.id);
    data.touch('scopes', frozen, { state: 'XAA_SCOPE_STATE_FROZEN' });
    const sync = await synced.cli('sync');
    expect(sync.code, sync.err).toBe(0);
    const exported = await synced.cli('export', 'scopes', '--out', file());
    expect(exported.code, exported.err).toBe(0);
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
});
