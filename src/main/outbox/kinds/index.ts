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
import type { KindDescriptor, ValidationContext } from './descriptor';
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
}

export function prepareChange(kind: MutationKind, raw: unknown, ctx: ValidationContext): PreparedChange {
  const d = descriptorOf(kind);
  const input = d.validate(raw, ctx);
  const request = d.request(input);
  // The last guard: a body never carries a member the server sets (each kind leaves them out).
  const readOnly = readOnlyMembersIn(d.endpoint, request.body)[0];
  if (readOnly !== undefined) throw new OutboxValidationError(readOnly, `${readOnly} is set by the server and is never sent`);
  return {
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
