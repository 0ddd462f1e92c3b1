/**
 * Small readers over parsed API objects, shared by the collection descriptors, the store and the
 * reports: a value at a dotted path, every CEL expression in an object, and the ids an object
 * points at. They never throw on unexpected shapes (unknown fields and enum values are kept
 * elsewhere, and simply read here).
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Paths cut into their members, kept: a sync reads the same few paths of every object it stores. */
const pathMembers = new Map<string, readonly string[]>();

function membersOf(path: string): readonly string[] {
  let members = pathMembers.get(path);
  if (!members) {
    members = path.split('.');
    // The descriptors' paths are a few hundred; a caller with paths of its own is not kept.
    if (pathMembers.size < 2_000) pathMembers.set(path, members);
  }
  return members;
}

/** The value at `path` ('a.b.c'; '' is the object itself), or undefined. */
export function getPath(obj: unknown, path: string): unknown {
  if (path === '') return obj;
  let value: unknown = obj;
  for (const part of membersOf(path)) {
    if (!isRecord(value)) return undefined;
    value = value[part];
  }
  return value;
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The non-empty values, each once, in their first order. */
export const unique = (values: string[]): string[] => [...new Set(values.filter((v) => v !== ''))];

/** Where a CEL expression sits (a path like `automationSteps[2].sendEmail.userIdsCel`) and its text. */
export interface CelExpression {
  path: string;
  expression: string;
}

/**
 * Every CEL expression in `obj`: string members named `...Cel` (skipIfTrueCel, userIdCel,
 * expressionCel, ...), `condition` strings (triggers, routing rules, wait steps), and the
 * `expression` of `celExpression` / `accountCelExpression` selector objects. Empty strings are left out.
 */
export function celExpressions(obj: unknown, base = ''): CelExpression[] {
  const found: CelExpression[] = [];
  const walk = (value: unknown, path: string, key: string, parentKey: string): void => {
    if (typeof value === 'string') {
      const isCel = key.endsWith('Cel') || key === 'condition' || (key === 'expression' && /celexpression$/i.test(parentKey));
      if (isCel && value.trim() !== '') found.push({ path, expression: value });
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) => walk(item, `${path}[${i}]`, key, parentKey));
      return;
    }
    if (isRecord(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k, k, key);
    }
  };
  walk(obj, base, '', '');
  return found;
}

/** Every CEL expression of an object, one a line (search bodies). */
export const celText = (obj: unknown): string =>
  celExpressions(obj)
    .map((c) => c.expression)
    .join('\n');

/**
 * The ids an object points at, as `path=value`: string members named `...Id` and string arrays
 * named `...Ids`, and the `id` of reference objects (`connectorRef`, `userRefs[0]`, ...). Ids inside
 * CEL expressions are not resolved (they are expressions, not references).
 */
export function targets(obj: unknown, base = ''): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string, key: string, inRef: boolean): void => {
    if (typeof value === 'string') {
      if (value !== '' && (key.endsWith('Id') || (inRef && key === 'id'))) found.push(`${path}=${value}`);
      return;
    }
    if (Array.isArray(value)) {
      const idList = key.endsWith('Ids');
      value.forEach((item, i) => {
        if (idList && typeof item === 'string') {
          if (item !== '') found.push(`${path}[${i}]=${item}`);
        } else walk(item, `${path}[${i}]`, key, inRef);
      });
      return;
    }
    if (isRecord(value)) {
      // The direct members of a reference object (`connectorRef`, each of `userRefs`) are ids.
      const ref = /Refs?$/.test(key);
      for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k, k, ref);
    }
  };
  walk(obj, base, '', false);
  return found;
}

/** Joins the non-empty strings with newlines (search bodies). */
export function lines(...parts: (string | undefined | null)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').join('\n');
}
