import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The independent reader of the report tests: openpyxl under the system Python (never the pyenv
 * one on PATH). See openpyxl_reader.py for what it prints.
 */
export const SYSTEM_PYTHON = '/usr/bin/python3';
const script = fileURLToPath(new URL('./openpyxl_reader.py', import.meta.url));

export interface OpenpyxlSheet {
  name: string;
  /** visible, hidden or veryHidden. */
  state: string;
  header: unknown[] | null;
  rows: number;
  /** attest-canonical/2 and /3 (which hash alike), recomputed here (the Evidence sheet with its hash cells taken as empty). */
  sha256: string;
  frozen: string | null;
  autoFilter: string | null;
  dateColumns: number[];
  /** The page setup: orientation, fit to pages, print title rows ("1:1"), the odd footer's and header's parts. */
  print: {
    orientation: string | null;
    fitToPage: boolean;
    fitToWidth: number | null;
    fitToHeight: number | null;
    titleRows: string | null;
    /** The print scale in percent (with fitToPage false, the scale printed at). */
    scale: number | null;
    /** The print area ("$A$1:$F$17"), where only a part prints. */
    printArea: string | null;
    footer: { left?: string; center?: string; right?: string };
    header: { left?: string; center?: string; right?: string };
  };
  /** With rows: each row as [rowNumber, ...its plain values] (dates as {d: ISO}). */
  data?: unknown[][];
}

export interface OpenpyxlDump {
  sheets: OpenpyxlSheet[];
  /** The overall hash over the Evidence sheet's hash table, recomputed here. */
  overall: string | null;
  /** The document properties a reader shows, and their hash (the hash table's "[Document properties]"). */
  properties: { shown: Record<string, string>; sha256: string };
}

export function openpyxlDump(file: string, withRows = false): OpenpyxlDump {
  const out = execFileSync(SYSTEM_PYTHON, [script, 'dump', file, ...(withRows ? ['--rows'] : [])], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  return JSON.parse(out) as OpenpyxlDump;
}

/** Changes one cell with openpyxl and saves the workbook in place (the way an editor would). */
export function openpyxlSetCell(file: string, sheet: string, cell: string, value: unknown): void {
  execFileSync(SYSTEM_PYTHON, [script, 'set', file, sheet, cell, JSON.stringify(value)], { encoding: 'utf8' });
}
