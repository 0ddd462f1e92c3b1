/**
 * Text on its way to a terminal. Control characters (C0, DEL, C1, so every escape sequence:
 * colours, OSC 52 clipboard writes, clear-screen, cursor moves) and the bidi controls that reorder
 * what a line seems to say (marks, embeddings, overrides, isolates) are shown escaped: `\x1b`,
 * `\n`, `\u202e`. Kept apart from output.ts (tables, CSV) so that the CLI's entry point and the
 * sync's live lines escape without loading those.
 */

// Matching control characters is the point here.
/* eslint-disable no-control-regex */
/** C0 controls, DEL and C1 controls; the bidi marks, embeddings, overrides and isolates; line and paragraph separators. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
/** The same but a line break: for text whose line breaks are our own. */
const CONTROLS_BUT_NEWLINE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
/** The same but tabs and line breaks (CSV quotes those): for CSV cells. */
const CSV_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
/** Those JSON allows raw in a string (and a table or CSV has escaped already): DEL, C1, bidi, separators. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
/* eslint-enable no-control-regex */
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const unicodeEscape = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** One control character as visible text: `\n`, `\x1b`, `\u202e`. */
function visible(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : unicodeEscape(ch);
}

/** Text with every control character shown escaped (ESC as `\x1b`, a line break as `\n`): safe to print on a terminal. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, visible);
}

/** A message of ours for a terminal, with others' text in it: every control escaped but the line breaks. */
export function terminalText(text: string): string {
  return text.replace(CONTROLS_BUT_NEWLINE, visible);
}

/** A CSV cell's text: every control escaped but tabs and line breaks. */
export function escapeCsvText(text: string): string {
  return text.replace(CSV_CONTROLS, visible);
}

/**
 * JSON text for a terminal: the C1 controls, bidi controls and separators that JSON allows raw in
 * strings written as `\uXXXX` escapes, the same JSON value (C0 controls cannot be raw in JSON).
 */
export function escapeJsonText(json: string): string {
  return json.replace(CONTROLS, (ch) => (ch < ' ' ? visible(ch) : unicodeEscape(ch)));
}

/**
 * What goes to standard output (JSON, CSV, tables, lines), checked last: a control JSON allows raw
 * in a string written as its `\uXXXX` escape, the same JSON value and visible in any other text.
 * The C0 controls are each format's to escape (JSON and CSV by their rules, tables and lines as
 * `\x1b`): a table's own bold on a terminal passes.
 */
export function stdoutText(text: string): string {
  return text.replace(RAW_IN_JSON, unicodeEscape);
}
