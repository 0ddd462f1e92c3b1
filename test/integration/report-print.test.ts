/**
 * The demo evidence workbook on paper: its page setup read back by openpyxl, then printed to PDF
 * by LibreOffice (`soffice --headless --convert-to pdf`) and read with poppler (pdfinfo, pdftotext).
 * Every page of a data sheet carries the whole header row (first to last column): no sheet's
 * columns are split across pages; and the whole workbook takes fewer pages than rows/40 + sheets.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openpyxlDump, type OpenpyxlDump } from '../helpers/openpyxl';
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
  it('every sheet: landscape, fit to one page wide, the footer with its name, the report, as of when, page x of y', () => {
    expect(footer).toMatch(/^Evidence: the whole tenant: data as of \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    for (const sheet of dump.sheets) {
      expect(sheet.print, sheet.name).toMatchObject({ orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0 });
      expect(sheet.print.footer, sheet.name).toEqual({ left: sheet.name, center: footer, right: 'Page &P of &N' });
      expect(sheet.print.header, sheet.name).toEqual({});
    }
    for (const sheet of tables()) expect(sheet.print.titleRows, sheet.name).toBe('$1:$1');
  });

  it('LibreOffice prints no data sheet with its columns split across pages, in fewer pages than rows/40 + sheets', () => {
    const profile = join(dir, 'lo-profile');
    execFileSync(
      'soffice',
      ['--headless', '--norestore', `-env:UserInstallation=file://${profile}`, '--convert-to', 'pdf', '--outdir', dir, file],
      { stdio: 'ignore', timeout: 180_000 },
    );
    const pdf = join(dir, 'attest-demo-evidence.pdf');
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [pdf], { encoding: 'utf8' }))![1]);
    const rows = dump.sheets.reduce((sum, s) => sum + s.rows + 1, 0);
    expect(pages).toBeGreaterThanOrEqual(dump.sheets.length);
    expect(pages).toBeLessThan(rows / 40 + dump.sheets.length);

    // Each page: its sheet by the footer ("<sheet> <footer> Page n of N"), its header row on top.
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const printed = text.split('\f').filter((page) => page.trim() !== '');
    expect(printed).toHaveLength(pages);
    const pagesOf = new Map<string, string[]>();
    printed.forEach((page, i) => {
      const lines = page.split('\n').filter((l) => l.trim() !== '');
      const foot = lines.at(-1)!.trim().replace(/\s+/g, ' ');
      expect(foot, `page ${i + 1}`).toMatch(new RegExp(`^.+ ${escape(footer)} Page ${i + 1} of ${pages}$`));
      const sheet = foot.slice(0, foot.indexOf(` ${footer}`));
      pagesOf.set(sheet, [...(pagesOf.get(sheet) ?? []), lines.slice(0, -1).join('\n')]);
    });
    expect([...pagesOf.keys()]).toEqual(dump.sheets.map((s) => s.name));
    for (const sheet of tables()) {
      const header = sheet.header!.map((h) => String(h));
      const first = firstWord(header[0]!);
      const last = firstWord(header.at(-1)!);
      for (const [n, page] of pagesOf.get(sheet.name)!.entries()) {
        // The first printed line is the header row (wrapped headers continue below): it starts
        // with the first column's header and reaches the last column's.
        const top = page.split('\n')[0]!.trim();
        expect(top.startsWith(first), `${sheet.name} page ${n + 1} starts with ${first}: ${top}`).toBe(true);
        expect(top.split(/\s+/), `${sheet.name} page ${n + 1} ends with ${last}: ${top}`).toContain(last);
      }
    }
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
  }, 240_000);
});

const firstWord = (text: string): string => text.split(/\s+/)[0]!;
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
