/**
 * The request bodies of the vendor's OpenAPI document (test/fixtures/openapi/c1-openapi.subset.json,
 * a verbatim subset of the vendor's file), read member by member: which members a request schema
 * has, and which it flags `readOnly: true`. Read here independently of the app's own list
 * (src/shared/read-only-members.ts), so that list can be held to the document.
 */
import { readFileSync } from 'node:fs';

type Schema = Record<string, unknown>;
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const document = JSON.parse(readFileSync(new URL('../fixtures/openapi/c1-openapi.subset.json', import.meta.url), 'utf8')) as Document;

/** Members the spec names differently from the document (the spec is the source of truth there). */
const SPEC_NAMES: Record<string, string> = { chatChannel: 'slackChannel' };

/** A member of a request body: its dotted path and whether the document flags it read-only. */
export interface DocumentMember {
  path: string;
  readOnly: boolean;
}

/** The request body schema of an operation named `METHOD /api/v1/path`. */
export function requestSchema(endpoint: string): Schema {
  const [method, path] = endpoint.split(' ') as [string, string];
  const schema = document.paths[path]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`no request body for ${endpoint} in the OpenAPI document`);
  return schema;
}

/** The schemas a schema stands for: through `$ref`, `oneOf`/`anyOf`/`allOf` and list items (a list's items are its members). */
function alternatives(schema: Schema, seen: Set<string>): Schema[] {
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const name = ref.split('/').pop() as string;
    if (seen.has(name)) return [];
    const target = document.components.schemas[name];
    if (!target) throw new Error(`the OpenAPI document has no schema ${name}`);
    return alternatives(target, new Set([...seen, name]));
  }
  const out: Schema[] = [schema];
  for (const key of ['oneOf', 'anyOf', 'allOf'])
    for (const sub of (schema[key] as Schema[] | undefined) ?? []) out.push(...alternatives(sub, seen));
  if (schema.items && typeof schema.items === 'object') out.push(...alternatives(schema.items as Schema, seen));
  return out;
}

/** The members a schema has (one level), each with its schema and its readOnly flag. */
function membersOf(schema: Schema, seen: Set<string>): Map<string, { schema: Schema; readOnly: boolean }> {
  const out = new Map<string, { schema: Schema; readOnly: boolean }>();
  for (const alt of alternatives(schema, seen)) {
    for (const [name, member] of Object.entries((alt.properties as Record<string, Schema> | undefined) ?? {})) {
      const readOnly = member.readOnly === true || alternatives(member, seen).some((m) => m.readOnly === true);
      out.set(name, { schema: member, readOnly: readOnly || out.get(name)?.readOnly === true });
    }
  }
  return out;
}

/** Every member path of a request body schema, to a depth of `depth` (recursive schemas stop there). */
export function documentMembers(endpoint: string, depth = 6): DocumentMember[] {
  const out: DocumentMember[] = [];
  const walk = (schema: Schema, prefix: string, level: number) => {
    if (level > depth) return;
    for (const [name, member] of membersOf(schema, new Set())) {
      const path = prefix ? `${prefix}.${name}` : name;
      out.push({ path, readOnly: member.readOnly });
      walk(member.schema, path, level + 1);
    }
  };
  walk(requestSchema(endpoint), '', 1);
  return out;
}

/** What is wrong with a body by the document: members it does not have, and members it flags read-only. */
export function bodyProblems(endpoint: string, body: unknown): string[] {
  const problems: string[] = [];
  const walk = (value: unknown, schema: Schema, prefix: string) => {
    if (Array.isArray(value)) return value.forEach((item) => walk(item, schema, prefix));
    if (!value || typeof value !== 'object') return;
    const members = membersOf(schema, new Set());
    // An object the document leaves open (a map, `multiUserProfileAttributes`...) holds any member.
    const open = members.size === 0 && alternatives(schema, new Set()).some((a) => a.additionalProperties !== false);
    for (const [name, memberValue] of Object.entries(value as Record<string, unknown>)) {
      const path = prefix ? `${prefix}.${name}` : name;
      const member = members.get(name) ?? members.get(SPEC_NAMES[name] ?? '');
      if (!member) {
        if (!open) problems.push(`${path}: not a member of the request schema`);
        continue;
      }
      if (member.readOnly) problems.push(`${path}: read-only in the OpenAPI document`);
      walk(memberValue, member.schema, path);
    }
  };
  walk(body, requestSchema(endpoint), '');
  return problems;
}
