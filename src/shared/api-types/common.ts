/**
 * Shapes shared by every resource of the Access Governance API: scalars as the payload carries
 * them, references, permissions, the error bodies, the token exchange and the "which member is
 * set" helper used for oneof-style objects (automation steps, triggers, routing rule actions...).
 *
 * Conventions of every type in `api-types`:
 * - Every field is optional: the service omits empty ones (protobuf JSON).
 * - Nested objects and arrays may be `null` where the vendor's OpenAPI document says so.
 * - Timestamps and durations are strings or `null`.
 * - 64-bit integers (limits, counts, day numbers) travel as decimal strings.
 * - Objects are plain interfaces: nothing forbids or strips unknown keys at run time, so a
 *   payload keeps every field the service sent, known or not.
 */
import type { Page } from '../pagination';

export type { Page };

/** An RFC 3339 date-time string (UTC), or null. */
export type Timestamp = string | null;

/** A protobuf Duration in its JSON form (seconds with an `s` suffix, e.g. `"3600s"`), or null. */
export type Duration = string | null;

/** A 64-bit integer carried as a decimal string (e.g. `"42"`). */
export type Int64String = string;

/** A free-form JSON object (google.protobuf.Struct and map fields whose values are not typed). */
export type JsonObject = Record<string, unknown>;

/**
 * An object whose inner content is not shown by the spec: selector markers such as `allGrants`,
 * `appAccess`, `inclusionAll`, `exclusionNone`. Its presence is what counts; any content is kept.
 */
export type MarkerObject = Record<string, unknown>;

/** A google.protobuf.Any: a typed message with its `@type`, as in `expanded` and task `annotations`. */
export interface AnyMessage {
  '@type'?: string;
  [key: string]: unknown;
}

/** Reference to an app entitlement: `{ appId, id }`. */
export interface AppEntitlementRef {
  appId?: string;
  id?: string;
}

/** Reference to a connector: `{ appId, id }`. */
export interface ConnectorRef {
  appId?: string;
  id?: string;
}

/** Reference to a user: `{ id }`. */
export interface UserRef {
  id?: string;
}

/** The caller's permissions on an object (`objectPermissions`). */
export interface ObjectPermissions {
  delete?: boolean;
  edit?: boolean;
  read?: boolean;
  extra?: Record<string, boolean>;
}

/** `expandMask`: related objects to return in `expanded`. Accepted paths: not shown by the spec. */
export interface ExpandMask {
  paths?: string[] | null;
}

/** Pagination of GET list endpoints, in the query string (snake_case). */
export interface PageQuery {
  page_size?: number;
  page_token?: string;
}

/** The error body of the API (google.rpc.Status). */
export interface GoogleRpcStatus {
  /** A google.rpc.Code (e.g. 3 INVALID_ARGUMENT, 5 NOT_FOUND, 16 UNAUTHENTICATED). */
  code?: number;
  /** Developer-facing message, in English. */
  message?: string;
  /** Typed error details (google.protobuf.Any). */
  details?: AnyMessage[] | null;
}

/** The error body of the token endpoint (RFC 6749 section 5.2). */
export interface OAuthError {
  /** e.g. `invalid_client`, `invalid_grant`, `invalid_request`, `unsupported_grant_type`. */
  error: string;
  error_description?: string;
  error_uri?: string;
}

/** The answer of `POST /auth/v1/token`. `expires_in` is seconds until the token expires. */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
}

/** `client_assertion_type` of the signed client assertion grant. */
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Token request form, basic variant: the client secret in the form body. */
export interface ClientSecretTokenForm {
  grant_type: 'client_credentials';
  client_id: string;
  client_secret: string;
}

/** Token request form, signed variant: a JWT signed with the Ed25519 key of the client secret. */
export interface ClientAssertionTokenForm {
  grant_type: 'client_credentials';
  client_id: string;
  client_assertion_type: typeof CLIENT_ASSERTION_TYPE;
  client_assertion: string;
}

/** The form body of `POST /auth/v1/token` (application/x-www-form-urlencoded). */
export type TokenRequestForm = ClientSecretTokenForm | ClientAssertionTokenForm;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The kind of a oneof-style object: the first of `keys` whose member is present (neither absent nor
 * null), or `'unknown'` when none is (for example a step whose action the client does not know).
 */
export function kindOf<K extends string>(obj: unknown, keys: readonly K[]): K | 'unknown' {
  if (!isObject(obj)) return 'unknown';
  for (const key of keys) {
    if (Object.hasOwn(obj, key) && obj[key] !== undefined && obj[key] !== null) return key;
  }
  return 'unknown';
}

/**
 * The kind of a oneof-style object as the API wrote it: the first of `keys` present, else the first
 * member present that this version does not know (kept, never dropped); null when none is.
 */
export function kindAsWritten(obj: unknown, keys: readonly string[]): string | null {
  const known = kindOf(obj, keys);
  if (known !== 'unknown' || !isObject(obj)) return known === 'unknown' ? null : known;
  return Object.keys(obj).find((key) => obj[key] !== undefined && obj[key] !== null) ?? null;
}

/** Every one of `keys` present in `obj`, in the order of `keys` (more than one breaks "at most one"). */
export function presentKeys<K extends string>(obj: unknown, keys: readonly K[]): K[] {
  if (!isObject(obj)) return [];
  return keys.filter((key) => Object.hasOwn(obj, key) && obj[key] !== undefined && obj[key] !== null);
}
