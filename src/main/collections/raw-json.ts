/**
 * Byte-exact slices of a JSON text. The store keeps every object exactly as the tenant sent it, so
 * instead of re-serializing parsed values we cut each element out of the response text itself.
 *
 * The scanner walks the top level of one JSON object (and the elements of one array member) and
 * skips every value it does not need (strings with their escapes, nested objects and arrays,
 * numbers, literals) without building it. At those levels it is strict: an unterminated string,
 * object or array, a mismatched bracket, a missing colon or comma, a bad literal, or anything after
 * the closing brace throws a RawJsonError, so a truncated page is refused here too. Inside nested
 * values it only matches strings and brackets: callers validate the whole text with JSON.parse.
 */

export class RawJsonError extends Error {
  override name = 'RawJsonError';
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
  }
}

const QUOTE = 0x22; // "
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i += 1;
  return i;
}

/** Index just past the closing quote of the string that opens at `i`. */
function skipString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) throw new RawJsonError('unterminated string', i);
    // The quote is escaped when an odd number of backslashes precede it.
    let backslashes = 0;
    let k = q - 1;
    while (k > i && text.charCodeAt(k) === BACKSLASH) {
      backslashes += 1;
      k -= 1;
    }
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** Index just past a scalar (number, true, false, null) that starts at `i`. */
function skipScalar(text: string, i: number): number {
  let j = i;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
    if (c === QUOTE || c === OPEN_BRACE || c === OPEN_BRACKET || c === COLON) throw new RawJsonError('unexpected character in a value', j);
    j += 1;
  }
  if (j === i) throw new RawJsonError('missing value', i);
  const word = text.slice(i, j);
  if (word !== 'true' && word !== 'false' && word !== 'null' && !/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(word)) {
    throw new RawJsonError(`invalid literal ${JSON.stringify(word.slice(0, 20))}`, i);
  }
  return j;
}

/** Index just past the value that starts at `i` (whitespace already skipped). */
function skipValue(text: string, i: number): number {
  if (i >= text.length) throw new RawJsonError('unexpected end of input', i);
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) return skipScalar(text, i);
  // Objects and arrays: walk to the matching close, skipping strings, checking each close matches.
  const stack: number[] = [c];
  let j = i + 1;
  while (stack.length > 0) {
    if (j >= text.length) throw new RawJsonError('unexpected end of input inside a value', i);
    const d = text.charCodeAt(j);
    if (d === QUOTE) {
      j = skipString(text, j);
      continue;
    }
    if (d === OPEN_BRACE || d === OPEN_BRACKET) stack.push(d);
    else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
      const open = stack.pop();
      if ((d === CLOSE_BRACE) !== (open === OPEN_BRACE)) throw new RawJsonError('mismatched bracket', j);
    }
    j += 1;
  }
  return j;
}

function readKey(text: string, i: number): { key: string; end: number } {
  if (text.charCodeAt(i) !== QUOTE) throw new RawJsonError('expected a member name', i);
  const end = skipString(text, i);
  const inner = text.slice(i + 1, end - 1);
  // Keys rarely carry escapes; decode them only when they do.
  const key = inner.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : inner;
  return { key, end };
}

/**
 * Calls `visit(key, start, end)` for each member of the object that opens at `i` (whitespace
 * already skipped), strictly; returns the index just past its closing brace.
 */
function scanObject(text: string, i: number, visit: (key: string, start: number, end: number) => void): number {
  // A UTF-8 byte order mark decodes to U+FEFF; JSON.parse refuses it, and so do we.
  if (text.charCodeAt(i) !== OPEN_BRACE) throw new RawJsonError('expected a JSON object', i);
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return i + 1;
  for (;;) {
    const { key, end } = readKey(text, i);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) !== COLON) throw new RawJsonError('expected a colon', i);
    const start = skipSpace(text, i + 1);
    const valueEnd = skipValue(text, start);
    visit(key, start, valueEnd);
    i = skipSpace(text, valueEnd);
    const c = text.charCodeAt(i);
    if (c === COMMA) {
      i = skipSpace(text, i + 1);
      continue;
    }
    if (c === CLOSE_BRACE) return i + 1;
    throw new RawJsonError(i >= text.length ? 'unexpected end of input' : 'expected a comma or a closing brace', i);
  }
}

/** Calls `visit(key, start, end)` for each member of the top-level object of `text`. */
function forEachMember(text: string, visit: (key: string, start: number, end: number) => void): void {
  const end = skipSpace(text, scanObject(text, skipSpace(text, 0), visit));
  if (end !== text.length) throw new RawJsonError('unexpected text after the JSON object', end);
}

/**
 * Each element of an array value spanning [start, end), as `element(i)` cuts it: the element that
 * starts at `i` gives the index just past it and what to keep of it.
 */
function arrayElements<T>(text: string, start: number, end: number, element: (i: number) => { end: number; kept: T }): T[] {
  if (text.charCodeAt(start) !== OPEN_BRACKET) throw new RawJsonError('expected an array', start);
  const out: T[] = [];
  let i = skipSpace(text, start + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return out;
  for (;;) {
    const { end: valueEnd, kept } = element(i);
    out.push(kept);
    i = skipSpace(text, valueEnd);
    const c = text.charCodeAt(i);
    if (c === COMMA) {
      i = skipSpace(text, i + 1);
      continue;
    }
    if (c === CLOSE_BRACKET && i === end - 1) return out;
    throw new RawJsonError('expected a comma or a closing bracket', i);
  }
}

/** Where the top-level object's member `key` is in `text` (the last, like JSON.parse), or null when it is absent. */
function memberSpan(text: string, key: string): { start: number; end: number } | null {
  let found: { start: number; end: number } | null = null;
  forEachMember(text, (k, start, end) => {
    if (k === key) found = { start, end };
  });
  return found;
}

/** Where the top-level object's array member `key` is in `text`, or null when it is absent or null (an empty page). */
function listSpan(text: string, key: string): { start: number; end: number } | null {
  const span = memberSpan(text, key);
  return span === null || text.slice(span.start, span.end) === 'null' ? null : span;
}

/**
 * The exact text of each element of the top-level object's array member `key` (a page's `list`).
 * A missing or null member is an empty page. Like JSON.parse, the last duplicate member wins.
 */
export function arrayMemberSlices(text: string, key: string): string[] {
  const list = listSpan(text, key);
  if (list === null) return [];
  return arrayElements(text, list.start, list.end, (i) => {
    const end = skipValue(text, i);
    return { end, kept: text.slice(i, end) };
  });
}

/**
 * Of each element of the top-level object's array member `key`, the exact text of its member
 * `member` (null: the element is not an object, or has no such member), in one pass over the page
 * where cutting each element out and then its member out of it would read every element twice.
 */
export function arrayElementMemberSlices(text: string, key: string, member: string): (string | null)[] {
  const list = listSpan(text, key);
  if (list === null) return [];
  return arrayElements(text, list.start, list.end, (i) => {
    if (text.charCodeAt(i) !== OPEN_BRACE) return { end: skipValue(text, i), kept: null };
    let kept: string | null = null;
    const end = scanObject(text, i, (k, start, valueEnd) => {
      if (k === member) kept = text.slice(start, valueEnd);
    });
    return { end, kept };
  });
}

/** The exact text of the top-level object's member `key`, or null when it is absent. */
export function memberSlice(text: string, key: string): string | null {
  const span = memberSpan(text, key);
  return span === null ? null : text.slice(span.start, span.end);
}

/** Checks that `text` is one complete JSON object (the top level and every nested value). */
export function checkObject(text: string): void {
  forEachMember(text, () => {});
}
