/** create-scope: a new XAA scope on a resource server; reconciled by searching the scopes. */
import { ENUMS } from '../../../shared/enums';
import { validateScopeValue } from '../../../shared/validate';
import { OutboxValidationError } from '../types';
import type { KindDescriptor } from './descriptor';
import { findInList, get, seg, text } from './server';
import { StoreChecker } from './store-checks';
import { asObject, checkEnum, optionalString, requiredId } from './validation';

export interface CreateScopeInput extends Record<string, unknown> {
  appId: string;
  xaaResourceServerId: string;
  scopeValue: string;
  displayName?: string;
  description?: string;
  classification?: string;
  state?: string;
}

/**
 * What the synced scopes say of a new one: the same value already on that resource server (the
 * tenant answers 409) is refused when the scopes were walked whole, warned otherwise; a resource
 * server no synced scope of the app is on is warned about (the store knows resource servers only
 * through their scopes: one with none yet may exist; an unknown one is refused by the tenant, 404).
 */
function checkScopeOnServer(c: StoreChecker, input: CreateScopeInput): void {
  const { ctx } = c;
  const asOf = c.asOf('scopes');
  if (!asOf) return;
  const server = { appId: input.appId, xaaResourceServerId: input.xaaResourceServerId };
  const same = ctx.findObject('scopes', { ...server, scopeValue: input.scopeValue });
  const complete = ctx.completeRun('scopes');
  if (same) {
    const message = `scope value '${input.scopeValue}' is already on resource server ${input.xaaResourceServerId} (scope ${same.id}`;
    if (complete) c.refuse('scopeValue', `${message}, as of run ${complete.runId}): the tenant refuses it again (409)`);
    else c.warn('scopeValue', `${message}, synced ${asOf})`);
    return;
  }
  if (!ctx.findObject('scopes', server))
    c.warn(
      'xaaResourceServerId',
      `no synced scope of app ${input.appId} is on resource server ${input.xaaResourceServerId} (synced ${asOf}): ` +
        'check the id (the tenant refuses a resource server it does not have), unless this is its first scope',
    );
}

export const createScope: KindDescriptor<CreateScopeInput> = {
  kind: 'create-scope',
  version: 1,
  label: 'Create scope',
  endpoint: 'POST /api/v1/apps/{app_id}/xaa/scopes',
  validate(raw) {
    const obj = asObject(raw, 'create-scope');
    const appId = requiredId(obj, 'appId');
    const xaaResourceServerId = requiredId(obj, 'xaaResourceServerId');
    const problem = validateScopeValue(obj.scopeValue, 'scopeValue');
    if (problem) throw new OutboxValidationError('scopeValue', problem.message);
    const out: CreateScopeInput = { appId, xaaResourceServerId, scopeValue: obj.scopeValue as string };
    const displayName = optionalString(obj, 'displayName', 1024);
    if (displayName !== undefined) out.displayName = displayName;
    const description = optionalString(obj, 'description', 8192);
    if (description !== undefined) out.description = description;
    if (obj.classification !== undefined && obj.classification !== '' && obj.classification !== null) {
      out.classification = checkEnum(ENUMS.XaaScopeClassification, obj.classification, 'classification');
    }
    if (obj.state !== undefined && obj.state !== '' && obj.state !== null) out.state = checkEnum(ENUMS.XaaScopeState, obj.state, 'state');
    return out;
  },
  checkStore(input, ctx) {
    const c = new StoreChecker(ctx);
    c.find('appId', 'apps', input.appId);
    checkScopeOnServer(c, input);
    return c.result();
  },
  csv: {
    columns: [
      { name: 'app_id', field: 'appId', required: true },
      { name: 'xaa_resource_server_id', field: 'xaaResourceServerId', required: true },
      { name: 'scope_value', field: 'scopeValue', required: true },
      { name: 'display_name', field: 'displayName', required: false },
      { name: 'description', field: 'description', required: false },
      { name: 'classification', field: 'classification', required: false, type: 'enum', enumValues: ENUMS.XaaScopeClassification },
      { name: 'state', field: 'state', required: false, type: 'enum', enumValues: ENUMS.XaaScopeState },
    ],
  },
  request(input) {
    const body: Record<string, unknown> = { xaaResourceServerId: input.xaaResourceServerId, scopeValue: input.scopeValue };
    for (const key of ['displayName', 'description', 'classification', 'state'] as const)
      if (input[key] !== undefined) body[key] = input[key];
    return { method: 'POST', path: `/apps/${seg(input.appId)}/xaa/scopes`, body };
  },
  target: (i) => `scope:${i.appId}/${i.xaaResourceServerId}/${i.scopeValue}`,
  dedupeKey: (i) => `${i.appId}\u0000${i.xaaResourceServerId}\u0000${i.scopeValue}`,
  summary: (i) => `create scope '${i.scopeValue}' on resource server ${i.xaaResourceServerId} (app ${i.appId})`,
  overlay: (i, itemId) => [
    {
      collection: 'scopes',
      objectId: `pending:${itemId}`,
      effect: 'pending-creation',
      data: { ...i, displayName: i.displayName ?? i.scopeValue },
    },
  ],
  result(body) {
    const scope = get(body, 'scope') as Record<string, unknown> | undefined;
    return { scopeId: text(scope?.id), appEntitlementId: text(scope?.appEntitlementId), state: text(scope?.state) };
  },
  refresh(body) {
    const scope = get(body, 'scope') as Record<string, unknown> | undefined;
    return scope && typeof scope.id === 'string' ? [{ collection: 'scopes', id: scope.id, json: scope }] : [];
  },
  reconcileHow: 'searches the server for a scope with the same scopeValue on the same resource server',
  async reconcile({ api, input, item, signal }) {
    const matches = (await findInList(
      api,
      (pageToken) => ({
        method: 'POST',
        path: '/search/xaa/scopes',
        mutation: false,
        body: {
          appIds: [input.appId],
          xaaResourceServerIds: [input.xaaResourceServerId],
          query: input.scopeValue,
          pageSize: 100,
          pageToken,
        },
        signal,
      }),
      (row) => {
        const r = row as Record<string, unknown>;
        return (
          r.scopeValue === input.scopeValue &&
          r.xaaResourceServerId === input.xaaResourceServerId &&
          (!r.appId || r.appId === input.appId) &&
          !r.deletedAt
        );
      },
    )) as Record<string, unknown>[];
    const found = matches[0];
    if (!found)
      return {
        outcome: 'not-applied',
        note: `no scope '${input.scopeValue}' on resource server ${input.xaaResourceServerId}: it was not created`,
      };
    const created = typeof found.createdAt === 'string' ? Date.parse(found.createdAt) : NaN;
    const firstSent = item.firstSentAt ? Date.parse(item.firstSentAt) : NaN;
    if (!Number.isNaN(created) && !Number.isNaN(firstSent) && created < firstSent - 10 * 60_000) {
      return {
        outcome: 'unknown',
        note:
          `scope ${text(found.id)} with this value already existed before the first attempt (created ${String(found.createdAt)}): ` +
          'this change did not create it; resolve or discard it',
      };
    }
    return {
      outcome: 'applied',
      result: { scopeId: text(found.id), appEntitlementId: text(found.appEntitlementId), state: text(found.state) },
      note: `found scope ${text(found.id)} with this scopeValue on the server: it was created`,
    };
  },
};
