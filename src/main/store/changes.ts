import { isRecord } from '../collections';

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}

/**
 * The top-level fields whose values differ between two versions of an object (key order does not
 * count). `root` names a wrapper path to look through: for a campaign stored as its
 * `{accessReview: <campaign>, objectPermissions, ...}` view, the fields of the campaign are reported
 * by name (`state`) and the view's other members by theirs (`objectPermissions`).
 */
export function changedFields(before: unknown, after: unknown, root = ''): string[] {
  const out: string[] = [];
  const compare = (a: unknown, b: unknown, prefix: string, rest: string[]): void => {
    if (!isRecord(a) || !isRecord(b)) {
      if (!same(a, b)) out.push(prefix || '(whole object)');
      return;
    }
    const [head, ...tail] = rest;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const k of keys) {
      if (head !== undefined && k === head) {
        compare(a[k], b[k], tail.length === 0 ? '' : `${prefix}${k}.`, tail);
      } else if (!same(a[k], b[k])) {
        out.push(`${prefix}${k}`);
      }
    }
  };
  compare(before, after, '', root === '' ? [] : root.split('.'));
  return out.sort();
}

/** One value that differs between two versions: where (`state`, `automationSteps[2].sendEmail.subject`), before and after. */
export interface FieldChange {
  field: string;
  /** Absent (undefined) when the field was not there. */
  before: unknown;
  after: unknown;
}

/** At most this many changed values are listed per object (the rest are counted). */
export const FIELD_CHANGES_LIMIT = 60;

/**
 * The values that differ between two versions, down to the leaves: objects are compared member by
 * member and arrays of the same length item by item, so a changed step condition reads as that
 * condition's old and new text, not as two whole lists of steps. Arrays whose length changed, and
 * values whose type changed, are reported whole. Paths are named as `changedFields` names them
 * (relative to `root`). At most `limit` changes are listed; `total` counts them all.
 */
export function fieldChanges(
  before: unknown,
  after: unknown,
  root = '',
  limit = FIELD_CHANGES_LIMIT,
): { changes: FieldChange[]; total: number } {
  const changes: FieldChange[] = [];
  let total = 0;
  const report = (field: string, a: unknown, b: unknown) => {
    total += 1;
    if (changes.length < limit) changes.push({ field: field || '(whole object)', before: a, after: b });
  };
  const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (same(a, b)) return;
    if (isRecord(a) && isRecord(b)) {
      for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) walk(a[k], b[k], join(path, k));
    } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      a.forEach((item, i) => walk(item, b[i], `${path}[${i}]`));
    } else {
      report(path, a, b);
    }
  };
  // Through the wrapper down to the object itself; the wrapper's other members keep their full path.
  const descend = (a: unknown, b: unknown, prefix: string, rest: string[]): void => {
    const [head, ...tail] = rest;
    if (head === undefined || !isRecord(a) || !isRecord(b)) return walk(a, b, prefix);
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (k === head) descend(a[k], b[k], tail.length === 0 ? '' : join(prefix, k), tail);
      else walk(a[k], b[k], join(prefix, k));
    }
  };
  descend(before, after, '', root === '' ? [] : root.split('.'));
  return { changes, total };
}
