/**
 * Tests against the reference tenant: start one in-process on a random loopback port, talk to it
 * over real HTTP, stop it. And check answers against the vendor's OpenAPI document.
 *
 *   const tenant = await startTestTenant({ seed: 7 });
 *   const { status, body } = await tenant.call('POST', '/api/v1/search/automations', { pageSize: 10 });
 *   await tenant.close();
 *
 * or, per test file: `const tenant = useTenant({ seed: 7 });` then `tenant().call(...)`.
 */
import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll } from 'vitest';
import { startTenant, type ReferenceTenant, type TenantOptions } from '../../src/tenant/server';

export interface CallResult<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: T;
}

export interface TestTenant extends ReferenceTenant {
  /** A bearer token of the tenant's first credential (basic flow), minted once and reused. */
  accessToken(): Promise<string>;
  /** A request with that bearer token; `body` is sent as JSON (also for DELETE). */
  call<T = unknown>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<CallResult<T>>;
  /** POST /auth/v1/token with this form (no bearer). */
  tokenRequest(form: Record<string, string>, headers?: Record<string, string>): Promise<CallResult>;
}

export async function readResult<T>(response: Response): Promise<CallResult<T>> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: body as T };
}

export async function startTestTenant(options: TenantOptions = {}): Promise<TestTenant> {
  const tenant = await startTenant(options);
  let token: Promise<string> | undefined;
  const tokenRequest = async (form: Record<string, string>, headers: Record<string, string> = {}) =>
    readResult(
      await fetch(`${tenant.url}/auth/v1/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form),
      }),
    );
  const accessToken = () => {
    token ??= tokenRequest({ grant_type: 'client_credentials', client_id: tenant.clientId, client_secret: tenant.clientSecret }).then(
      (r) => {
        if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
        return (r.body as { access_token: string }).access_token;
      },
    );
    return token;
  };
  const call = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    readResult<T>(
      await fetch(`${tenant.url}${path}`, {
        method,
        redirect: 'manual',
        headers: {
          Authorization: `Bearer ${await accessToken()}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  return Object.assign(tenant, { accessToken, call, tokenRequest });
}

/** One tenant for the test file: started before all tests, stopped after. */
export function useTenant(options: TenantOptions = {}): () => TestTenant {
  let tenant: TestTenant | undefined;
  beforeAll(async () => {
    tenant = await startTestTenant(options);
  });
  afterAll(async () => {
    await tenant?.close();
  });
  return () => {
    if (!tenant) throw new Error('the tenant starts in beforeAll');
    return tenant;
  };
}

// ---- The vendor's OpenAPI document as a validator ----

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
}

/**
 * The vendor's document as two subsets of the same file (c1-openapi.provenance.json and
 * c1-openapi.admin-subset.provenance.json): the spec's endpoints, and the objects admins act on.
 * Both copy their schemas verbatim, so a name present in both holds the same schema.
 */
const DOCUMENT_URLS = [
  new URL('../fixtures/openapi/c1-openapi.subset.json', import.meta.url),
  new URL('../fixtures/openapi/c1-openapi.admin-subset.json', import.meta.url),
];
let document: OpenApiDocument | undefined;
function openApi(): OpenApiDocument {
  if (!document) {
    const [first, ...rest] = DOCUMENT_URLS.map((url) => JSON.parse(readFileSync(url, 'utf8')) as OpenApiDocument);
    document = first as OpenApiDocument;
    for (const more of rest) {
      Object.assign(document.paths, more.paths);
      Object.assign(document.components.schemas, more.components.schemas);
    }
  }
  return document;
}

/**
 * Members the spec names differently from the vendor document (the spec is the source of truth),
 * or that only the spec lists: added to the exact schemas so they are checked, not just tolerated.
 */
const SPEC_MEMBERS: [schema: string, member: string, sameAs: string | Record<string, unknown>][] = [
  ['c1.api.accessreview.v1.AccessReviewTemplate', 'chatChannel', 'slackChannel'],
  ['c1.api.automations.v1.AutomationStep', 'sendChatMessage', 'sendSlackMessage'],
  ['c1.api.policy.v1.ProvisionInstance', 'workerActionInvocationId', 'batonActionInvocationId'],
  ['c1.api.ai_governance.v1.MCPAccessProfile', 'description', { type: 'string' }],
];

function walkSchemas(node: unknown, visit: (schema: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) node.forEach((n) => walkSchemas(n, visit));
  else if (node && typeof node === 'object') {
    visit(node as Record<string, unknown>);
    for (const value of Object.values(node)) walkSchemas(value, visit);
  }
}

/**
 * `open`: the document as the vendor means it: enums marked `x-speakeasy-unknown-values: allow`
 * accept any string, objects accept members the document does not list (what a client must
 * tolerate). `exact`: every enum closed and every object closed to its listed members (plus the
 * spec's names): what the tenant's ordinary objects must match, so a misspelt field fails.
 */
function compile(mode: 'open' | 'exact'): Ajv2020 {
  const components = structuredClone(openApi().components);
  walkSchemas(components.schemas, (schema) => {
    if (mode === 'open' && schema['x-speakeasy-unknown-values'] === 'allow') delete schema.enum;
    if (mode === 'exact' && schema.properties && typeof schema.properties === 'object' && schema.additionalProperties === undefined)
      schema.additionalProperties = false;
  });
  if (mode === 'exact') {
    for (const [name, member, sameAs] of SPEC_MEMBERS) {
      const properties = components.schemas[name]?.properties as Record<string, unknown> | undefined;
      if (!properties) throw new Error(`no schema ${name} in the OpenAPI document`);
      properties[member] = typeof sameAs === 'string' ? properties[sameAs] : sameAs;
    }
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // Protobuf JSON forms: durations are "<seconds>s", not ISO 8601; unsigned ints are plain integers.
  ajv.addFormat('duration', /^-?\d+(\.\d{1,9})?s$/);
  ajv.addFormat('uint32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 && n <= 0xffffffff });
  ajv.addFormat('uint64', { type: 'string', validate: (s: string) => /^\d+$/.test(s) });
  ajv.addFormat('base64', /^[A-Za-z0-9+/_-]*={0,2}$/);
  ajv.addSchema({ $id: 'c1.json', components });
  return ajv;
}

const validators: Partial<Record<'open' | 'exact', Ajv2020>> = {};

function validator(mode: 'open' | 'exact', schemaName: string): ValidateFunction {
  const ajv = (validators[mode] ??= compile(mode));
  const validate = ajv.getSchema(`c1.json#/components/schemas/${schemaName}`);
  if (!validate) throw new Error(`no schema ${schemaName} in the OpenAPI document`);
  return validate;
}

/** The schema name of an operation's 200 answer, e.g. ('POST', '/api/v1/search/automations'). */
export function responseSchemaName(method: string, pathTemplate: string): string {
  const operation = openApi().paths[pathTemplate]?.[method.toLowerCase()];
  const ref = operation?.responses?.['200']?.content?.['application/json']?.schema?.$ref;
  if (!ref) throw new Error(`no 200 schema for ${method} ${pathTemplate} in the OpenAPI document`);
  return ref.split('/').pop() as string;
}

/** True for objects the tenant made "from the future" (unknown enum values and fields). */
export function isFutureObject(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isFutureObject);
  if (!value || typeof value !== 'object') return false;
  return 'riskScoreV3' in value || Object.values(value).some(isFutureObject);
}

/** A copy without the array elements that carry future members (the exact check skips them). */
function withoutFuture(value: unknown): unknown {
  if (Array.isArray(value)) return value.filter((v) => !isFutureObject(v)).map(withoutFuture);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutFuture(v)]));
}

function describe(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 8)
    .map(
      (e) => `${e.instancePath || '/'} ${e.message}${'additionalProperty' in e.params ? ` '${String(e.params.additionalProperty)}'` : ''}`,
    )
    .join('; ');
}

/**
 * Throws unless `body` is valid against `schemaName`: open for the whole body, exact for
 * everything that is not a future object. Returns the body for chaining.
 */
export function assertSchema<T>(schemaName: string, body: T): T {
  const open = validator('open', schemaName);
  if (!open(body)) throw new Error(`${schemaName} (open): ${describe(open)}`);
  const exactBody = withoutFuture(body);
  if (!isFutureObject(exactBody)) {
    const exact = validator('exact', schemaName);
    if (!exact(exactBody)) throw new Error(`${schemaName} (exact): ${describe(exact)}`);
  }
  return body;
}

/** Checks an answer of `METHOD /path/template` against the document's 200 schema. */
export function assertResponse<T>(method: string, pathTemplate: string, body: T): T {
  return assertSchema(responseSchemaName(method, pathTemplate), body);
}

/** Checks an error body: google.rpc.Status with the given code. */
export function assertStatus(body: unknown, code: number): void {
  assertSchema('google.rpc.Status', body);
  const status = body as { code?: number; message?: string };
  if (status.code !== code) throw new Error(`expected google.rpc code ${code}, got ${status.code} (${status.message})`);
  if (!status.message) throw new Error('google.rpc.Status without a message');
}
