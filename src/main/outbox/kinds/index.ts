/**
 * One descriptor per mutation kind (one file each in this folder): its version, local validation
 * (by the spec, before anything is queued), the exact request, what a success records, how an
 * uncertain attempt is reconciled by reading the server, and the "pending" overlay shown in views
 * and search. Adding a kind is one file here and one entry in `KINDS`.
 */
import { readOnlyMembersIn } from '../../../shared/read-only-members';
import { requestDigest } from '../canonical';
import { OutboxValidationError, type MutationKind, type OutboxRequest } from '../types';
import { createCampaign } from './create-campaign';
import { createScope } from './create-scope';
import type { KindDescriptor, StoreCheck, StoreFinding, ValidationContext } from './descriptor';
import { escalateTask } from './escalate-task';
import { removeMembership } from './remove-membership';
import { updateTemplate } from './update-template';

export type * from './descriptor';
export type { CreateCampaignInput } from './create-campaign';
export type { CreateScopeInput } from './create-scope';
export type { EscalateTaskInput } from './escalate-task';
export type { RemoveMembershipInput } from './remove-membership';
export { TEMPLATE_FIELDS, type UpdateTemplateInput } from './update-template';
export { checkDateTime } from './validation';
export { cachingContext, StoreChecker } from './store-checks';

export const KINDS = {
  'create-scope': createScope,
  'remove-membership': removeMembership,
  'escalate-task': escalateTask,
  'update-template': updateTemplate,
  'create-campaign': createCampaign,
} as const satisfies Record<MutationKind, { kind: MutationKind; version: number }>;

export function descriptorOf(kind: string): KindDescriptor {
  const d = (KINDS as Record<string, unknown>)[kind];
  if (!d) throw new OutboxValidationError('kind', `unknown change kind '${kind}' (known: ${Object.keys(KINDS).join(', ')})`);
  return d as KindDescriptor;
}

/** A validated change, ready to be written. */
export interface PreparedChange {
  kind: MutationKind;
  version: number;
  input: Record<string, unknown>;
  request: OutboxRequest;
  digest: string;
  target: string;
  dedupeKey: string;
  summary: string;
  /** What the store may not know (the change is queued all the same). */
  warnings: StoreFinding[];
  /** Names of the objects the input names, by input field. */
  names: Record<string, string>;
}

/**
 * Validates a change by the spec's rules, then against the store (the one check step every entry
 * runs: the app's forms, the CLI, CSV import, edits): a refusal of either throws an
 * OutboxValidationError naming the field; the store's warnings come back with the change.
 */
export function prepareChange(kind: MutationKind, raw: unknown, ctx: ValidationContext): PreparedChange {
  const d = descriptorOf(kind);
  const { reason, rest } = reasonOf(raw);
  // An escalation takes a comment in the API: the reason is it, unless a comment is given too.
  const fields = rest as Record<string, unknown>;
  const given = reason !== undefined && kind === 'escalate-task' && !fields.comment ? { ...fields, comment: reason } : rest;
  const input = d.validate(given, ctx);
  const checked = d.checkStore?.(input, ctx) ?? { findings: [], names: {} };
  const refusal = checked.findings.find((f) => f.severity === 'refuse');
  if (refusal) throw new OutboxValidationError(refusal.field, refusal.message);
  return buildChange(kind, d, reason === undefined ? input : { ...input, reason }, checked);
}

/** The longest reason kept with a change (as long as an escalation's comment may be). */
export const REASON_MAX_CHARS = 2000;

/**
 * Why the user makes a change (the `reason` member of any kind's input): kept with the item and in
 * its journal entry, never sent where the API takes no comment. The rest of the input goes to the kind.
 */
function reasonOf(raw: unknown): { reason: string | undefined; rest: unknown } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !('reason' in raw)) return { reason: undefined, rest: raw };
  const { reason, ...rest } = raw as Record<string, unknown>;
  if (reason === undefined || reason === null || reason === '') return { reason: undefined, rest };
  if (typeof reason !== 'string') throw new OutboxValidationError('reason', 'reason must be text');
  const text = reason.trim();
  if (text.length > REASON_MAX_CHARS)
    throw new OutboxValidationError('reason', `reason is ${text.length} characters: at most ${REASON_MAX_CHARS}`);
  return { reason: text === '' ? undefined : text, rest };
}

/**
 * The change a valid input makes: the request its kind builds now, and the digest, target, key and
 * summary derived from it (by prepareChange, and again when a queued item's kind is upgraded).
 * Throws an OutboxValidationError when the request would carry a member the server sets.
 */
export function buildChange(
  kind: MutationKind,
  d: KindDescriptor,
  input: Record<string, unknown>,
  checked: StoreCheck = { findings: [], names: {} },
): PreparedChange {
  // The reason stays with the item: the request is built from the kind's own members.
  const { reason: _reason, ...sent } = input;
  const request = d.request(sent);
  // The last guard: a body never carries a member the server sets (each kind leaves them out).
  const readOnly = readOnlyMembersIn(d.endpoint, request.body)[0];
  if (readOnly !== undefined) throw new OutboxValidationError(readOnly, `${readOnly} is set by the server and is never sent`);
  return {
    warnings: checked.findings,
    names: checked.names,
    kind,
    version: d.version,
    input,
    request,
    digest: requestDigest(request),
    target: d.target(input),
    dedupeKey: d.dedupeKey(input),
    summary: d.summary(input),
  };
}
