import { SEARCH_COUNT_CAP } from '../../shared/search-limits';
import { enumColumnWords, enumWords } from '../../shared/enum-words';

/** "3 minutes ago", "yesterday", or a date: for "data as of" stamps. */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((now - then) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return `${days} d ago`;
  return new Date(then).toISOString().slice(0, 10);
}

/** "2026-11-28 06:47 UTC": the absolute time of a stamp, to the minute. */
export function utcMinute(iso: string): string | null {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : `${new Date(time).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * A freshness stamp: relative, and the absolute UTC time beside it ("10 min ago (2026-11-28
 * 06:47 UTC)"), so a screenshot or a note taken from the screen still says when.
 */
export function agoAt(iso: string | null | undefined, now = Date.now()): string {
  const relative = ago(iso, now);
  const absolute = iso ? utcMinute(iso) : null;
  return absolute && !relative.startsWith(absolute.slice(0, 10)) ? `${relative} (${absolute})` : (absolute ?? relative);
}

export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  return new Date(time)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:00Z$/, 'Z');
}

/** "14:05": a time of today in the user's clock (when the next run is due). */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/** A duration for people: '850 ms', '5.5 s', '2 min 5 s'. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** An estimate of the time left, rounded as estimates are: 'about 20 s left', 'about 3 min left'. */
export function timeLeft(seconds: number): string {
  if (seconds < 5) return 'a few seconds left';
  if (seconds < 60) return `about ${Math.round(seconds / 5) * 5} s left`;
  return `about ${Math.round(seconds / 60)} min left`;
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** A search count: search counts matches up to a cap, so a count at the cap (or a sum of counts, one at it) reads "10,000+". */
export function matchCount(n: number, atCap = n >= SEARCH_COUNT_CAP): string {
  return atCap ? `${count(n)}+` : count(n);
}

/**
 * An enum value as every front writes it (shared/enum-words.ts): a listed value as its label
 * ('XAA_SCOPE_STATE_PENDING_REVIEW' -> 'Pending review'); one no enumeration lists as written,
 * marked "(value not known to this version)" exactly as the CLI and the workbooks mark it, flagged
 * `known: false`, with `title` saying the raw value (for hover).
 */
export function enumText(enumName: string | null | undefined, value: string): { label: string; known: boolean; title: string } {
  const words = enumWords(value, enumName);
  if (!words) return { label: '', known: true, title: '' };
  return { label: words.text, known: words.known, title: words.known ? value : `Unknown value: ${value}` };
}

/** A value of an enum column (a cell, a filter's choice), as the CLI's tables and the workbooks write it: see `enumColumnWords`. */
export function enumCellText(enumName: string | null | undefined, value: string): { label: string; known: boolean; title: string } {
  const words = enumColumnWords(value, enumName);
  if (!words) return { label: '', known: true, title: '' };
  return { label: words.text, known: words.known, title: words.known ? value : `Unknown value: ${value}` };
}

export function humanizeKey(key: string): string {
  const spaced = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1).toLowerCase();
}
