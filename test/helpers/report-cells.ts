import { ENUMS } from '../../src/shared/enums';
import type { OpenpyxlDump, OpenpyxlSheet } from './openpyxl';

/** The sheet that holds every object exactly as the API sent it. */
export const RAW = 'Raw API values';

/** Known enum values of the spec and the OpenAPI document. */
const KNOWN = new Set<string>(Object.values(ENUMS).flat() as string[]);

/** The sheets that show values in words (the Raw sheet holds them as the API sent them). */
const dataSheets = (py: OpenpyxlDump): OpenpyxlSheet[] =>
  py.sheets.filter((s) => !['Cover', 'Evidence', 'Dictionary', RAW].includes(s.name));

/** Columns that hold code or an API answer, verbatim by nature: CEL text, a condition, the outbox's answers. */
const VERBATIM = new Set(['CEL expressions', 'Condition', 'Answer']);

/** Each cell of the data sheets (outside VERBATIM columns) that holds a known enum value's raw name. */
export function rawEnumCells(py: OpenpyxlDump): string[] {
  const found: string[] = [];
  for (const sheet of dataSheets(py)) {
    const header = sheet.data![0]!;
    for (const row of sheet.data!.slice(1))
      row.slice(1).forEach((v, i) => {
        if (typeof v !== 'string' || VERBATIM.has(String(header[i + 1]))) return;
        // A constant within text (XAA_SCOPE_STATE_ENABLED), or a whole cell that is a value (a one-word one such as JIRA).
        const tokens = v.split(/[^A-Za-z0-9_]+/).filter((t) => t.includes('_') || t === v);
        for (const token of tokens) if (KNOWN.has(token)) found.push(`${sheet.name}!${String(header[i + 1])}: ${v}`);
      });
  }
  return found;
}
