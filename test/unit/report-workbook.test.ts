import ExcelJS from 'exceljs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { canonicalRow, cellText, MAX_CELL_TEXT, SheetHasher } from '../../src/main/reports/canonical';
import { changedSheets, verifyWorkbook } from '../../src/main/reports/verify';
import { EVIDENCE_FORMAT, ExportCancelled, ExportWriteError, ReportWorkbook, type ColumnSpec } from '../../src/main/reports/workbook';
import { openpyxlDump, openpyxlSetCell } from '../helpers/openpyxl';

const dir = mkdtempSync(join(tmpdir(), 'attest-report-wb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const columns: ColumnSpec[] = [
  { header: 'Id', type: 'text' },
  { header: 'Created (UTC)', type: 'date' },
  { header: 'Created (API text)', type: 'text' },
  { header: 'Count', type: 'int' },
  { header: 'Enabled', type: 'bool' },
  { header: 'State', type: 'enum' },
];

// Text that trips XML writers and readers: entities, CR/LF, control characters, astral planes,
// lone surrogates, leading/trailing blanks, formula-looking text.
const nasty = ['&amp; &lt;b&gt;', 'a\r\nb\rc', 'bell\u0007', '😀 é ß', 'lone \uD800 half', '  padded  ', '=1+1', 'it\'s "q"'];

function* sampleRows(n: number): Generator<unknown[]> {
  for (let i = 0; i < n; i += 1) {
    const iso = new Date(Date.UTC(2024, 1, 29, 12, 0, 0, 0) + i * 1_234_567).toISOString();
    yield [`id-${i}`, new Date(iso), iso, i, i % 3 === 0, i % 7 === 0 ? 'STATE_NOT_IN_SPEC_YET' : 'XAA_SCOPE_STATE_ENABLED'];
  }
}

async function build(file: string, rows: Iterable<unknown[]>): Promise<void> {
  const book = await ReportWorkbook.create(file);
  await book.addSheet({ name: 'Things', columns, rows: rows as Iterable<never[]> });
  await book.addSheet({
    name: 'Text',
    columns: [{ header: 'Value', type: 'text' }],
    rows: nasty.map((v) => [v]),
  });
  await book.finish([['Attest evidence'], ['Format', EVIDENCE_FORMAT], ['Generated at (UTC)', new Date('2025-01-02T03:04:05.678Z')]]);
}

describe('canonical form', () => {
  it('trims trailing empties, types dates, skips empty rows', () => {
    expect(canonicalRow(3, ['a', null, 1, true, new Date('2024-01-01T00:00:00.001Z'), '', undefined])).toBe(
      '[3,"a",null,1,true,{"d":"2024-01-01T00:00:00.001Z"}]\n',
    );
    expect(canonicalRow(4, [null, ''])).toBe('');
  });

  it('makes cell text storable: control characters, line ends, lone surrogates, length', () => {
    expect(cellText('a\r\nb\rc')).toBe('a\nb\nc');
    expect(cellText('x\u0000y\uD800')).toBe('x\uFFFDy\uFFFD');
    expect(cellText('😀')).toBe('😀');
    const long = cellText('x'.repeat(40_000));
    expect(long.length).toBeLessThanOrEqual(MAX_CELL_TEXT);
    expect(long).toMatch(/cut: 40000 characters\]$/);
  });

  it('hashes incrementally the same as at once', () => {
    const a = new SheetHasher({ name: 'Things' });
    const b = new SheetHasher({ name: 'Things' });
    for (let i = 1; i <= 5000; i += 1) a.add(i, [`row ${i}`, i]);
    for (let i = 1; i <= 5000; i += 1) b.add(i, [`row ${i}`, i]);
    expect(a.digest()).toBe(b.digest());
  });
});

describe('report workbook', () => {
  it('writes a streamed workbook that exceljs and openpyxl read back identically, and verify passes', async () => {
    const file = join(dir, 'round.xlsx');
    await build(file, sampleRows(1000));

    const py = openpyxlDump(file, true);
    expect(py.sheets.map((s) => s.name)).toEqual(['Evidence', 'Things', 'Text', 'Locator']);
    const things = py.sheets[1]!;
    expect(things.header).toEqual(columns.map((c) => c.header));
    expect(things.rows).toBe(1000);
    expect(things.frozen).toBe('A2');
    expect(things.autoFilter).toBe('A1:F1001');
    expect(things.dateColumns).toEqual([2]);
    // dates: the date cell equals the API's text, to the millisecond, in UTC
    for (const row of things.data!.slice(1)) expect((row[2] as { d: string }).d).toBe(row[3]);
    expect(things.data!.some((r) => r.includes('STATE_NOT_IN_SPEC_YET'))).toBe(true);
    expect(py.sheets[2]!.data!.slice(1).map((r) => r[1])).toEqual(nasty.map(cellText));

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Evidence', 'Things', 'Text', 'Locator']);
    const ws = wb.getWorksheet('Things')!;
    expect(ws.rowCount).toBe(1001);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    const second = ws.getRow(2).values as unknown[];
    expect((second[2] as Date).toISOString()).toBe(second[3]);
    expect(ws.getColumn(1).width).toBeGreaterThanOrEqual(8);

    const result = await verifyWorkbook(file);
    expect(result.status).toBe('intact');
    expect(result.form).toBe('attest-canonical/4');
    expect(result.sheets.map((s) => s.name)).toEqual(['Evidence', 'Things', 'Text', 'Locator']);
    // the independent reader recomputes the very same hashes: every sheet (the Evidence sheet but
    // for its hash cells) and the overall hash
    for (const check of result.sheets) {
      expect(py.sheets.find((s) => s.name === check.name)!.sha256, check.name).toBe(check.expectedSha256);
    }
    expect(py.overall).toBe(result.expectedOverall);
    // and the document properties, hashed as the hash table's "[Document properties]"
    expect(py.properties.shown).toEqual({
      'core:creator': 'Attest',
      'core:created': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    expect(result.properties).toEqual({ status: 'intact', shown: py.properties.shown });
  });

  it('fails verification when openpyxl changes one cell, naming that sheet only', async () => {
    const file = join(dir, 'tamper.xlsx');
    await build(file, sampleRows(50));
    openpyxlSetCell(file, 'Things', 'D10', 999);
    const result = await verifyWorkbook(file);
    expect(result.status).toBe('altered');
    expect(changedSheets(result)).toEqual(['Things']);
    expect(result.sheets.find((s) => s.name === 'Text')!.status).toBe('intact');
  });

  it('fails verification when the manifest is edited', async () => {
    const file = join(dir, 'tamper-manifest.xlsx');
    await build(file, sampleRows(5));
    openpyxlSetCell(file, 'Evidence', 'B3', 'yesterday');
    const result = await verifyWorkbook(file);
    expect(result.status).toBe('altered');
    expect(changedSheets(result)).toEqual(['Evidence']);
  });

  it('says when a file is not an Attest workbook', async () => {
    const junk = join(dir, 'junk.xlsx');
    writeFileSync(junk, 'not a zip');
    expect((await verifyWorkbook(junk)).status).toBe('not-attest');
    const plain = join(dir, 'plain.xlsx');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Sheet1').addRow(['hello']);
    await wb.xlsx.writeFile(plain);
    const result = await verifyWorkbook(plain);
    expect(result.status).toBe('not-attest');
  });

  it('cancel leaves no file at the target and no temp file', async () => {
    const file = join(dir, 'cancelled', 'out.xlsx');
    rmSync(join(dir, 'cancelled'), { recursive: true, force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'cancelled'));
    const controller = new AbortController();
    const book = await ReportWorkbook.create(file, {
      signal: controller.signal,
      progressEvery: 1000,
      onProgress: (p) => {
        if (p.rows >= 3000) controller.abort();
      },
    });
    await expect(book.addSheet({ name: 'Things', columns, rows: sampleRows(50_000) as Iterable<never[]> })).rejects.toBeInstanceOf(
      ExportCancelled,
    );
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(join(dir, 'cancelled'))).toEqual([]);
  });

  it('a write error ends the export with the cause and the path, and leaves no temp file', async () => {
    const folder = join(dir, 'eio');
    mkdirSync(folder);
    const file = join(folder, 'out.xlsx');
    // Writes reach the temp file until 64 kB, then the disk answers EIO.
    const failing = (handle: FileHandle): Writable => {
      let written = 0;
      return new Writable({
        write(chunk: Buffer, _encoding, callback) {
          written += chunk.length;
          if (written > 64 * 1024) return callback(Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' }));
          handle.write(chunk).then(() => callback(), callback);
        },
        destroy(error, callback) {
          handle.close().then(
            () => callback(error),
            () => callback(error),
          );
        },
      });
    };
    const book = await ReportWorkbook.create(file, { output: failing });
    const failed = (async () => {
      await book.addSheet({ name: 'Things', columns, rows: sampleRows(20_000) as Iterable<never[]> });
      return book.finish([['Format', EVIDENCE_FORMAT]]);
    })();
    await expect(failed).rejects.toBeInstanceOf(ExportWriteError);
    await expect(failed).rejects.toThrow(`cannot write ${file}: an input/output error on the disk (EIO); nothing was written there`);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('cancel ends an export whose output stalls, and removes the temp file', async () => {
    const folder = join(dir, 'stalled');
    mkdirSync(folder);
    // An output that takes the first writes, then never answers again (a hung network share).
    const stalled = (handle: FileHandle): Writable => {
      let writes = 0;
      return new Writable({
        write(_chunk, _encoding, callback) {
          writes += 1;
          if (writes < 3) callback();
        },
        destroy(error, callback) {
          handle.close().then(
            () => callback(error),
            () => callback(error),
          );
        },
      });
    };
    const controller = new AbortController();
    const book = await ReportWorkbook.create(join(folder, 'out.xlsx'), { output: stalled, signal: controller.signal });
    const running = (async () => {
      await book.addSheet({ name: 'Things', columns, rows: sampleRows(2_000) as Iterable<never[]> });
      return book.finish([['Format', EVIDENCE_FORMAT]]);
    })();
    const settled = running.then(
      () => 'finished',
      (error: Error) => error.name,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await Promise.race([settled, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 0))])).toBe('still waiting');
    controller.abort();
    expect(await settled).toBe('ExportCancelled');
    expect(readdirSync(folder)).toEqual([]);
  });

  it('removes the temp files of exports whose process is gone, at the next export into that folder', async () => {
    const folder = join(dir, 'stale');
    mkdirSync(folder);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    const stale = [`.report.xlsx.${gone}.0badf00d.tmp`, `.other.xlsx.${gone}.tmp`];
    const alive = `.report.xlsx.${process.ppid}.12345678.tmp`;
    const foreign = ['.report.xlsx.tmp', 'notes.txt', `.report.csv.${gone}.tmp`];
    for (const name of [...stale, alive, ...foreign]) writeFileSync(join(folder, name), 'partial');
    await build(join(folder, 'report.xlsx'), sampleRows(5));
    expect(readdirSync(folder).sort()).toEqual([alive, ...foreign, 'report.xlsx'].sort());
  });
});
