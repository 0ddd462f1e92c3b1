/**
 * What a PDF prints, page by page, read two independent ways:
 * - the font sizes its content streams set (`/F1 8.25 Tf`), from the page objects in page-tree
 *   order, their streams inflated with zlib. LibreOffice draws text with `Td` moves and no text or
 *   graphics matrix that scales (checked: a page that has one is reported), so the `Tf` size is
 *   the size printed;
 * - the height of every word's box as poppler lays it out (`pdftotext -bbox`): a box spans the
 *   font's ascent to its descent, more than its size in points for any text font.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

export interface PrintedPage {
  /** The sizes in points of the fonts the page's text is set in. */
  fontSizes: number[];
  /** Operators that would scale text beyond its `Tf` size (`Tm`, or a `cm` that is no plain move). */
  scaling: string[];
}

/** Each page's font sizes, from the content streams (see above). */
export function pdfPages(file: string): PrintedPage[] {
  const bytes = readFileSync(file);
  const text = bytes.toString('latin1');
  const objects = new Map<number, number>();
  for (const m of text.matchAll(/(?:^|[\r\n])(\d+) 0 obj\b/g)) objects.set(Number(m[1]), m.index + m[0].length);
  const body = (n: number): string => {
    const at = objects.get(n);
    if (at === undefined) throw new Error(`object ${n} not found`);
    return text.slice(at, text.indexOf('endobj', at));
  };
  const stream = (n: number): string => {
    const dict = body(n);
    const at = objects.get(n)! + dict.indexOf('stream') + 'stream'.length;
    const start = at + (text[at] === '\r' ? 2 : 1);
    const raw = bytes.subarray(start, text.indexOf('endstream', start));
    return (dict.includes('/FlateDecode') ? inflateSync(raw) : raw).toString('latin1');
  };
  const refs = (list: string): number[] => [...list.matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
  // The page tree, in order: a Pages node lists its Kids, a Page its Contents.
  const rootId = [...objects.keys()].find((n) => /\/Type\s*\/Pages\b/.test(body(n)) && !/\/Parent\b/.test(body(n)));
  if (rootId === undefined) throw new Error('no page tree');
  const pages: PrintedPage[] = [];
  const walk = (n: number): void => {
    const dict = body(n);
    const kids = /\/Kids\s*\[([^\]]*)\]/.exec(dict);
    if (/\/Type\s*\/Pages\b/.test(dict) && kids) return refs(kids[1]!).forEach(walk);
    const contents = /\/Contents\s*(\[[^\]]*\]|\d+ 0 R)/.exec(dict);
    const content = contents ? refs(contents[1]!).map(stream).join('\n') : '';
    const fontSizes = [...content.matchAll(/\/[^\s/]+\s+(-?[\d.]+)\s+Tf\b/g)].map((m) => Number(m[1]));
    const scaling = [
      ...[...content.matchAll(/(?:-?[\d.]+\s+){6}Tm\b/g)].map((m) => m[0]),
      ...[...content.matchAll(/((?:-?[\d.]+\s+){4})(?:-?[\d.]+\s+){2}cm\b/g)]
        .filter((m) => m[1]!.trim().split(/\s+/).map(Number).join(' ') !== '1 0 0 1')
        .map((m) => m[0]),
    ];
    pages.push({ fontSizes, scaling });
  };
  walk(rootId);
  return pages;
}

export interface PrintedWord {
  page: number;
  word: string;
  height: number;
}

/** Every word poppler lays out, with the height of its box in points. */
export function pdfWords(file: string): PrintedWord[] {
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const words: PrintedWord[] = [];
  let page = 0;
  for (const m of html.matchAll(/<page\b|<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
    if (m[0] === '<page') page += 1;
    else words.push({ page, word: m[3]!, height: Number(m[2]) - Number(m[1]) });
  }
  return words;
}

/** The number of pages, as pdfinfo reads it. */
export function pdfPageCount(file: string): number {
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1]);
}
