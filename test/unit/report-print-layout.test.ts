import { describe, expect, it } from 'vitest';
import { firstPageColumns, MIN_PRINT_SCALE, printScale, rowHeight, wrappedLines } from '../../src/main/reports/workbook';

describe('the print layout of a sheet', () => {
  it('wraps text by words, a word longer than a line over lines, each paragraph on its own', () => {
    expect(wrappedLines('short', 20)).toBe(1);
    expect(wrappedLines('one two three four five six seven eight', 10)).toBe(5);
    expect(wrappedLines('x'.repeat(50), 10)).toBe(5);
    expect(wrappedLines('a\nb\nc', 40)).toBe(3);
  });

  it('gives a row the height of its tallest wrapped cell, none to a one-line row', () => {
    expect(rowHeight(['short', 'also short'], [20, 20], [true, true])).toBeUndefined();
    expect(rowHeight(['a\nb\nc', 'x'], [20, 20], [true, true])).toBe(45);
    // A cell that does not wrap (a JSON line, a number) does not make its row taller.
    expect(rowHeight(['a\nb\nc', 42], [20, 20], [false, true])).toBeUndefined();
    expect(rowHeight(['word '.repeat(2000)], [10], [true])).toBe(409);
  });

  it('prints at the scale that fits a page wide, between the smallest readable one and 100 %', () => {
    expect(printScale([10, 10, 10])).toBe(100);
    expect(printScale([60, 60])).toBe(87);
    expect(printScale(new Array(40).fill(20))).toBe(MIN_PRINT_SCALE);
    expect(firstPageColumns(new Array(40).fill(20))).toBe(6);
    expect(firstPageColumns([500])).toBe(1);
  });
});
