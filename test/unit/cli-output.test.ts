import { parse } from 'csv-parse/sync';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../../src/cli/io';
import {
  askedFormat,
  columnsThatFit,
  csvCell,
  escapeControls,
  escapeJsonText,
  fitWidths,
  MARK_CLOSE,
  MARK_OPEN,
  outputFormat,
  print,
  renderCsv,
  renderTable,
  tableWidth,
} from '../../src/cli/output';
import { stdoutText, terminalText } from '../../src/cli/terminal-text';

const OSC52 = '\u001b]52;c;ZXZpbA==\u0007';
const CLEAR = '\u001b[2J\u001b[H';
// Every C0 control, DEL, every C1 control, the bidi controls and the separators.
const CONTROL_CODES = [
  ...Array.from({ length: 0x20 }, (_, i) => i),
  ...Array.from({ length: 0x21 }, (_, i) => 0x7f + i),
  0x061c,
  0x200e,
  0x200f,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
  0x2028,
  0x2029,
];
const hasControl = (text: string) => [...text].some((ch) => CONTROL_CODES.includes(ch.codePointAt(0)!));

function fakeIO(opts: Partial<CliIO> = {}): CliIO & { stdout: string } {
  const io = {
    stdout: '',
    out(text: string) {
      io.stdout += text.endsWith('\n') ? text : `${text}\n`;
    },
    err() {},
    readStdin: async () => '',
    env: {} as NodeJS.ProcessEnv,
    isTTY: false,
    ...opts,
  };
  return io;
}

describe('escaping tenant text for a terminal', () => {
  it('shows OSC 52, clear-screen and other escape sequences as visible text', () => {
    expect(escapeControls(`a${OSC52}b`)).toBe('a\\x1b]52;c;ZXZpbA==\\x07b');
    expect(escapeControls(`x${CLEAR}y`)).toBe('x\\x1b[2J\\x1b[Hy');
    expect(escapeControls('line\nnext\ttab\rret')).toBe('line\\nnext\\ttab\\rret');
    expect(escapeControls('\u009b31m C1 CSI, \u0085 NEL, \u007f DEL')).toBe('\\x9b31m C1 CSI, \\x85 NEL, \\x7f DEL');
    expect(escapeControls('abc\u202eexe.txt\u2066\u2028')).toBe('abc\\u202eexe.txt\\u2066\\u2028');
  });

  it('leaves every other character alone (accents, CJK, emoji, backslashes)', () => {
    const plain = 'Zürich 東京 🚀 C:\\path "quoted" ø';
    expect(escapeControls(plain)).toBe(plain);
  });

  it('escapes every control character, whatever it is', () => {
    const all = CONTROL_CODES.map((c) => String.fromCodePoint(c)).join('');
    const escaped = escapeControls(all);
    expect(hasControl(escaped)).toBe(false);
    expect(escaped.split('\\').length - 1).toBe(CONTROL_CODES.length);
  });

  it('a message of ours keeps its line breaks and escapes every other control, the bidi marks too', () => {
    expect(terminalText(`attest sync: No connection named 'a${OSC52}\u202eb\u200f\u061c'\n\nUsage: …\r`)).toBe(
      "attest sync: No connection named 'a\\x1b]52;c;ZXZpbA==\\x07\\u202eb\\u200f\\u061c'\n\nUsage: …\\r",
    );
    const all = CONTROL_CODES.map((c) => String.fromCodePoint(c)).join('');
    expect(hasControl(terminalText(all).replace('\n', ''))).toBe(false);
  });

  it('stdout keeps JSON the same value and a table its own bold, writing C1 and bidi controls as \\u escapes', () => {
    const value = { name: `pay\u0085roll\u202e\u200e`, other: OSC52 };
    const json = stdoutText(JSON.stringify(value, null, 2));
    expect(hasControl(json.replaceAll('\n', ''))).toBe(false);
    expect(JSON.parse(json)).toEqual(value);
    expect(stdoutText('\u001b[1madmin\u001b[22m\tx\u2029')).toBe('\u001b[1madmin\u001b[22m\tx\\u2029');
  });

  it('JSON for a terminal keeps the same value, with the controls JSON allows raw written as \\u escapes', () => {
    const value = { name: `pay\u009b2Jroll\u202e`, other: OSC52 };
    const json = JSON.stringify(value);
    const safe = escapeJsonText(json);
    expect(hasControl(safe)).toBe(false);
    expect(JSON.parse(safe)).toEqual(value);
  });
});

describe('tables', () => {
  it('aligns columns under upper-case headers and does not pad the last column', () => {
    const table = renderTable(
      ['id', 'name'],
      [
        ['a1', 'Payroll'],
        ['b22', null],
      ],
    );
    expect(table.split('\n')).toEqual(['ID   NAME', 'a1   Payroll', 'b22']);
  });

  it('cuts the widest columns first, with an ellipsis, so every line fits the width', () => {
    const rows = [
      ['id-1', 'A very long display name that cannot fit in a narrow terminal at all', 'TRIGGER_TYPE_SCHEDULE'],
      ['id-2', 'Short', 'TRIGGER_TYPE_WEBHOOK'],
    ];
    const table = renderTable(['id', 'name', 'trigger'], rows, { width: 40 });
    const lines = table.split('\n');
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(40);
    expect(lines[1]).toContain('…');
    expect(lines[1]!.startsWith('id-1  ')).toBe(true);
    expect(lines[2]).toContain('Short');
  });

  it('leaves out the columns on the right that would be cut below readability, and says which', () => {
    const headers = ['id', 'name', 'a', 'b', 'c', 'd'];
    const row = ['id-0000000001', 'Payroll admin access', 'aaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbb', 'ccccccccccccccc', 'ddddddddddddddd'];
    let leftOut: string[] = [];
    const table = renderTable(headers, [row], { width: 50, onLeftOut: (h) => (leftOut = h) });
    expect(leftOut).toEqual(['C', 'D']);
    expect(table.split('\n')[0]).toMatch(/^ID +NAME +A +B$/);
    for (const line of table.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(50);
    expect(columnsThatFit([20, 20, 20], undefined)).toBe(3);
    expect(columnsThatFit([20, 20, 20], 5)).toBe(2);
  });

  it('measures wide characters by the columns they take', () => {
    const table = renderTable(
      ['a', 'b'],
      [
        ['東京東京', 'x'],
        ['ab', 'y'],
      ],
    );
    const [, first, second] = table.split('\n');
    expect(first!.indexOf('x')).toBe(8 + 2 - 4);
    expect(stringWidth(first!.slice(0, first!.indexOf('x')))).toBe(stringWidth(second!.slice(0, second!.indexOf('y'))));
    const cut = renderTable(['a'], [['東京東京東京東京']], { width: 7 });
    for (const line of cut.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(7);
  });

  it('escapes the cells: no control character reaches the output', () => {
    const table = renderTable(['name'], [[`Evil ${OSC52}${CLEAR}\nnext line`]], { width: 200 });
    expect(table.split('\n')).toHaveLength(2);
    for (const line of table.split('\n')) expect(hasControl(line)).toBe(false);
    expect(table).toContain('\\x1b]52;c;ZXZpbA==\\x07');
  });

  it('shows matched words bold on a terminal and in brackets elsewhere; the bold never runs past a cut', () => {
    const cell = `a ${MARK_OPEN}payroll${MARK_CLOSE} b`;
    expect(renderTable(['m'], [[cell]])).toContain('a [payroll] b');
    expect(renderTable(['m'], [[cell]], { bold: true })).toContain('a \u001b[1mpayroll\u001b[22m b');
    const cut = renderTable(['m'], [[`x ${MARK_OPEN}payrollpayroll${MARK_CLOSE} y`]], { bold: true, width: 8 }).split('\n')[1]!;
    expect(cut.lastIndexOf('\u001b[22m')).toBeGreaterThan(cut.lastIndexOf('\u001b[1m'));
  });

  it('fits widths: keeps natural widths that fit, caps the wide ones at the largest cap that fits', () => {
    expect(fitWidths([5, 10], undefined)).toEqual([5, 10]);
    expect(fitWidths([5, 10], 17)).toEqual([5, 10]);
    expect(fitWidths([5, 30, 20], 40)).toEqual([5, 15, 15]);
    const w = fitWidths([3, 50, 50, 8], 60);
    expect(w.reduce((a, b) => a + b, 0) + 2 * 3).toBeLessThanOrEqual(60);
  });

  it('cuts to the terminal width (or COLUMNS) on a terminal only, never in a pipe', () => {
    expect(tableWidth(fakeIO({ stdoutIsTTY: true, columns: 90 }))).toBe(90);
    expect(tableWidth(fakeIO({ stdoutIsTTY: true, columns: 90, env: { COLUMNS: '70' } }))).toBe(70);
    expect(tableWidth(fakeIO({ stdoutIsTTY: true, columns: 90, env: { COLUMNS: 'wide' } }))).toBe(90);
    expect(tableWidth(fakeIO({ stdoutIsTTY: false, columns: 90, env: { COLUMNS: '70' } }))).toBeUndefined();
    expect(tableWidth(fakeIO())).toBeUndefined();
  });
});

describe('CSV', () => {
  it('reads back with every value, quoting commas, quotes and line breaks', () => {
    const rows = [
      ['a', 'x, y', 3, true],
      ['b', 'say "hi"\nthere', null, false],
    ];
    const csv = renderCsv(['id', 'name', 'n', 'flag'], rows);
    expect(parse(csv)).toEqual([
      ['id', 'name', 'n', 'flag'],
      ['a', 'x, y', '3', 'true'],
      ['b', 'say "hi"\nthere', '', 'false'],
    ]);
  });

  it("guards text cells a spreadsheet would run as a formula with a leading '; numbers stay numbers", () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('\'=HYPERLINK("http://x","y")');
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('escapes escape sequences in cells, keeps tabs and line breaks, drops search markers', () => {
    expect(csvCell(`x${OSC52}`)).toBe('x\\x1b]52;c;ZXZpbA==\\x07');
    expect(csvCell('a\tb\nc')).toBe('a\tb\nc');
    expect(csvCell(`${MARK_OPEN}pay${MARK_CLOSE}`)).toBe('pay');
  });
});

describe('output format and printing', () => {
  it('-o table|json|csv, --json as -o json, table by default; anything else is a usage error', () => {
    expect(outputFormat({})).toBe('table');
    expect(outputFormat({ json: true })).toBe('json');
    expect(outputFormat({ output: 'csv' })).toBe('csv');
    expect(outputFormat({ output: 'json', json: true })).toBe('json');
    expect(askedFormat({})).toBeUndefined();
    expect(() => outputFormat({ output: 'xml' })).toThrow(/-o must be one of table, json, csv, not 'xml'/);
    expect(() => outputFormat({ output: 'csv', json: true })).toThrow(/two formats/);
    expect(() => outputFormat({ output: `\u001b[2J` })).toThrow(/not '\\x1b\[2J'/);
  });

  it('prints JSON exactly (controls as JSON escapes, the value unchanged)', () => {
    const io = fakeIO();
    const value = { title: `Evil ${OSC52}` };
    print(io, 'json', { headers: ['t'], rows: [[value.title]], json: () => value });
    expect(JSON.parse(io.stdout)).toEqual(value);
    const table = fakeIO();
    print(table, 'table', { headers: ['t'], rows: [[value.title]], json: () => value });
    expect(hasControl(table.stdout.replace(/\n/g, ''))).toBe(false);
    const csv = fakeIO();
    print(csv, 'csv', { headers: ['t'], csvHeaders: ['title'], rows: [], json: () => value });
    expect(csv.stdout).toBe('title\n');
  });
});
