/**
 * The members of the request bodies Attest sends that a client never sends: the service sets them
 * and shows them in its answers only. This is the one list of them: the outbox builds every body
 * without them, the reference tenant refuses a request carrying one (400, as the service does), and
 * a unit test holds the list to the vendor's OpenAPI document (every member it flags
 * `readOnly: true` in a request schema is here, marked 'openapi') and to the spec (the members it
 * calls "response only", marked 'spec': the document does not flag those).
 *
 * Paths are dotted member names within the body; a list on the way is looked into item by item.
 */

/** Where a member is said to be read-only: the OpenAPI document's `readOnly: true`, or the spec's "response only". */
export type ReadOnlySource = 'openapi' | 'spec';
export type ReadOnlyMembers = Readonly<Record<string, ReadOnlySource>>;

function within(prefix: string, members: ReadOnlyMembers): ReadOnlyMembers {
  return Object.fromEntries(Object.entries(members).map(([path, source]) => [`${prefix}.${path}`, source]));
}

/** In a scope selector (a template's `scope`, a new campaign's `scopeV2`; spec "Scope selector object"). */
export const SCOPE_SELECTOR_READ_ONLY: ReadOnlyMembers = {
  'accountCriteria.accountDomain': 'spec',
  'grantsByCriteria.accessProfileFilter.filterType': 'spec',
  'grantsByCriteria.sourceFilter': 'spec',
  'grantsByCriteria.typeFilter': 'spec',
  principalTypeFilter: 'spec',
};

/** In an access review template (spec "Access review template"; the timestamps also flagged by the document). */
export const TEMPLATE_READ_ONLY: ReadOnlyMembers = {
  createdAt: 'openapi',
  updatedAt: 'openapi',
  deletedAt: 'openapi',
  accuracyIssueAction: 'spec',
  autoCloseDecision: 'spec',
  defaultView: 'spec',
  scopeType: 'spec',
  'recurrenceRule.frequency': 'spec',
  ...within('scope', SCOPE_SELECTOR_READ_ONLY),
};

/**
 * Per request the app sends, named as the OpenAPI document names the operation
 * (`METHOD /api/v1/path-template`): the read-only members of its body.
 */
export const REQUEST_READ_ONLY: Readonly<Record<string, ReadOnlyMembers>> = {
  'POST /api/v1/apps/{app_id}/xaa/scopes': {},
  'DELETE /api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/remove-membership': {},
  'POST /api/v1/tasks/{task_id}/action/escalate': {},
  'POST /api/v1/access_review': within('scopeV2', SCOPE_SELECTOR_READ_ONLY),
  'POST /api/v1/access_review_template/{id}': within('accessReviewTemplate', TEMPLATE_READ_ONLY),
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Whether `value` holds a member at `segments` (looking into lists item by item). */
function holds(value: unknown, segments: readonly string[]): boolean {
  if (Array.isArray(value)) return value.some((item) => holds(item, segments));
  if (!isRecord(value)) return false;
  const [head, ...rest] = segments;
  if (head === undefined || !Object.hasOwn(value, head) || value[head] === undefined) return false;
  return rest.length === 0 || holds(value[head], rest);
}

/** The read-only members `value` holds, as paths of `members`, in its order. */
export function readOnlyMembersOf(members: ReadOnlyMembers, value: unknown): string[] {
  return Object.keys(members).filter((path) => holds(value, path.split('.')));
}

/** The read-only members a request body holds; none for a request the list does not name. */
export function readOnlyMembersIn(endpoint: string, body: unknown): string[] {
  const members = REQUEST_READ_ONLY[endpoint];
  return members ? readOnlyMembersOf(members, body) : [];
}

function without(value: unknown, segments: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => without(item, segments));
  const [head, ...rest] = segments;
  if (!isRecord(value) || head === undefined || !Object.hasOwn(value, head)) return value;
  const out = { ...value };
  if (rest.length === 0) delete out[head];
  else out[head] = without(value[head], rest);
  return out;
}

/** A copy of `value` without the members at `paths` (dotted); the rest is shared, not copied. */
export function withoutMembers<T>(value: T, paths: readonly string[]): T {
  return paths.reduce<unknown>((current, path) => without(current, path.split('.')), value) as T;
}
