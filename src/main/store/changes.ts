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
