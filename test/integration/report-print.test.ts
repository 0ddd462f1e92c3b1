/**
 * The demo evidence workbook on paper: its page setup read back by openpyxl, then printed to PDF
 * by LibreOffice (`soffice --headless --convert-to pdf`) and read with poppler (pdfinfo, pdftotext)
 * and from the PDF's own content streams (test/helpers/pdf.ts): at most 45 pages, no text under
 * 8 points, every page of a table under its header row; and what the sheets hold reads as the
 * Dictionary says (every meaning written, whole numbers as numbers, no column twice).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { openpyxlDump, type OpenpyxlDump } from '../helpers/openpyxl';
import { pdfPageCount, pdfPages, pdfWords } from '../helpers/pdf';
import { runCli } from './sync.helpers';

const dir = mkdtempSync(join(tmpdir(), 'attest-report-print-'));
const file = join(dir, 'attest-demo-evidence.xlsx');
let dump: OpenpyxlDump;
let footer = '';

beforeAll(async () => {
  const demo = await runCli(['demo', '--out', file, '--data-dir', join(dir, 'data')]);
  expect(demo.code, demo.err).toBe(0);
  dump = openpyxlDump(file, true);
  const evidence = dump.sheets.find((s) => s.name === 'Evidence')!.data!;
  footer = String(evidence.find((r) => r[1] === 'Page footer')![2]);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The sheets with a header row (all but the Cover and the Evidence sheet). */
const tables = (): OpenpyxlDump['sheets'] => dump.sheets.filter((s) => s.name !== 'Cover' && s.name !== 'Evidence');

describe('the demo evidence workbook, printed', () => {
  it('every sheet: landscape at 75 % or more, the footer with its name, the report, as of when, page x of y', () => {
    expect(footer).toMatch(/^Evidence: the whole tenant: data as of \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    for (const sheet of dump.sheets) {
      expect(sheet.print, sheet.name).toMatchObject({ orientation: 'landscape', fitToPage: false });
      expect(sheet.print.scale, sheet.name).toBeGreaterThanOrEqual(75);
      expect(sheet.print.footer, sheet.name).toEqual({ left: sheet.name, center: footer, right: 'Page &P of &N' });
      expect(sheet.print.header, sheet.name).toEqual({});
    }
    for (const sheet of tables()) expect(sheet.print.titleRows, sheet.name).toBe('$1:$1');
    // The long tables print their header row; the wide ones their first page of columns, every row.
    const area = (name: string): string | null => dump.sheets.find((s) => s.name === name)!.print.printArea;
    for (const name of ['Raw API values', 'Locator', 'Access', 'Task details', 'Step settings', 'Campaign settings'])
      expect(area(name), name).toMatch(/^\$A\$1:\$[A-Z]+\$1$/);
    expect(area('Campaigns')).toBe(`$A$1:$F$${dump.sheets.find((s) => s.name === 'Campaigns')!.rows + 1}`);
    expect(area('Cover')).toBeNull();
    // The Dictionary prints every row from Sheet to Meaning (the API member column is in the file).
    expect(area('Dictionary')).toBe(`$A$1:$E$${dump.sheets.find((s) => s.name === 'Dictionary')!.rows + 1}`);
    for (const name of ['Users', 'Policies']) expect(area(name), name).toMatch(/^\$A\$1:\$[A-Z]+\$1$/);
    // The Cover says what of each sheet prints.
    const cover = dump.sheets.find((s) => s.name === 'Cover')!.data!;
    expect(cover.find((r) => r[1] === 'Access')![2]).toMatch(/\(on paper: its header row only; the rows are in the file\)$/);
    expect(cover.find((r) => r[1] === 'Campaigns')![2]).toMatch(
      /\(on paper: columns A to F, one page wide; every column is in the file\)$/,
    );
  });

  it('LibreOffice prints it in at most 45 pages, no text under 8 points, each table page under its header row', () => {
    const profile = join(dir, 'lo-profile');
    execFileSync(
      'soffice',
      ['--headless', '--norestore', `-env:UserInstallation=file://${profile}`, '--convert-to', 'pdf', '--outdir', dir, file],
      { stdio: 'ignore', timeout: 180_000 },
    );
    const pdf = join(dir, 'attest-demo-evidence.pdf');
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    const pages = pdfPageCount(pdf);
    expect(pages).toBeGreaterThanOrEqual(dump.sheets.length);
    expect(pages).toBeLessThanOrEqual(45);

    // Font sizes, two ways: the size each content stream sets (no matrix scales it further), and
    // the height of each word's box as poppler lays it out (a box is taller than its font's size).
    const printed = pdfPages(pdf);
    expect(printed).toHaveLength(pages);
    for (const [i, page] of printed.entries()) {
      expect(page.scaling, `page ${i + 1}`).toEqual([]);
      expect(page.fontSizes.length, `page ${i + 1} has text`).toBeGreaterThan(0);
      expect(Math.min(...page.fontSizes), `page ${i + 1}`).toBeGreaterThanOrEqual(8);
    }
    const words = pdfWords(pdf);
    expect(new Set(words.map((w) => w.page)).size).toBe(pages);
    const small = words.filter((w) => w.height < 8);
    expect(small, JSON.stringify(small.slice(0, 5))).toEqual([]);

    // Each page: its sheet by the footer ("<sheet> <footer> Page n of N"), its header row on top.
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const texts = text.split('\f').filter((page) => page.trim() !== '');
    expect(texts).toHaveLength(pages);
    const pagesOf = new Map<string, string[]>();
    texts.forEach((page, i) => {
      const lines = page.split('\n').filter((l) => l.trim() !== '');
      const foot = lines.at(-1)!.trim().replace(/\s+/g, ' ');
      expect(foot, `page ${i + 1}`).toMatch(new RegExp(`^.+ ${escape(footer)} Page ${i + 1} of ${pages}$`));
      const sheet = foot.slice(0, foot.indexOf(` ${footer}`));
      pagesOf.set(sheet, [...(pagesOf.get(sheet) ?? []), lines.slice(0, -1).join('\n')]);
    });
    expect([...pagesOf.keys()]).toEqual(dump.sheets.map((s) => s.name));
    for (const sheet of tables()) {
      const first = firstWord(String(sheet.header![0]));
      for (const [n, page] of pagesOf.get(sheet.name)!.entries()) {
        // The first printed line is the header row (wrapped headers continue below).
        const top = page.split('\n')[0]!.trim();
        expect(top.startsWith(first), `${sheet.name} page ${n + 1} starts with ${first}: ${top}`).toBe(true);
      }
    }
    // The Cover's wrapped rows do not overlap: "How to verify" prints whole.
    const cover = pagesOf.get('Cover')!.join('\n').replace(/\s+/g, ' ');
    expect(cover).toContain('Without Attest, recompute the hashes from the canonical form stated at the foot of the Evidence sheet.');
    expect(cover).toContain('Evidence sheet states, per collection, how it was gathered');
  }, 240_000);
});

describe('the demo evidence workbook, read as its Dictionary says', () => {
  const dictionary = (): unknown[][] => dump.sheets.find((s) => s.name === 'Dictionary')!.data!.slice(1);

  it('writes a meaning for every column of every sheet, and no sheet has a column twice', () => {
    const rows = dictionary();
    expect(rows.length).toBeGreaterThan(200);
    const empty = rows.filter((r) => typeof r[5] !== 'string' || r[5].trim() === '').map((r) => `${String(r[1])}: ${String(r[3])}`);
    expect(empty, empty.join(' | ')).toEqual([]);
    for (const sheet of tables()) {
      const headers = sheet.header!.map(String);
      expect(
        headers.filter((h, i) => headers.indexOf(h) !== i),
        sheet.name,
      ).toEqual([]);
    }
  });

  it('holds whole numbers as numbers, read by openpyxl and by exceljs', async () => {
    const wholeNumbers = dictionary().filter((r) => r[4] === 'whole number');
    expect(wholeNumbers.map((r) => `${String(r[1])}: ${String(r[3])}`)).toEqual(
      expect.arrayContaining(['Tasks: Number', 'Campaigns: Scoping version', 'Automations: Current version']),
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(file);
    let checked = 0;
    for (const [, sheetName, letter, header] of wholeNumbers) {
      const sheet = dump.sheets.find((s) => s.name === sheetName)!;
      const column = columnIndex(String(letter));
      expect(sheet.header![column], `${String(sheetName)} ${String(letter)}`).toBe(header);
      const values = sheet.data!.slice(1).map((r) => r[column + 1]);
      for (const v of values)
        if (v !== null) expect(Number.isInteger(v), `${String(sheetName)}: ${String(header)} = ${JSON.stringify(v)}`).toBe(true);
      const rows = book.getWorksheet(String(sheetName))!;
      for (let r = 2; r <= rows.rowCount; r += 1) {
        const cell = rows.getCell(r, column + 1);
        if (cell.value !== null) expect(cell.type, `${String(sheetName)}!${cell.address}`).toBe(ExcelJS.ValueType.Number);
      }
      checked += values.filter((v) => v !== null).length;
    }
    expect(checked).toBeGreaterThan(40);
  });
});

/** The 0-based index of a column letter ("A" is 0, "AA" 26). */
const columnIndex = (letter: string): number => [...letter].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0) - 1;
const firstWord = (text: string): string => text.split(/\s+/)[0]!;
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
