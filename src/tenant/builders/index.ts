/**
 * Builders of every object of the reference tenant, shaped as the spec's tables say (and the
 * vendor's OpenAPI document where the spec is silent), one file per collection. Each collection
 * draws from its own PRNG stream, so the data is a pure function of the seed and the scale.
 *
 * Coverage is by construction, not by luck: the first objects of a collection walk through every
 * member that must appear (step actions, triggers, routing-rule actions, scope states...), the
 * rest are drawn at random. Every 50th object (index 7, 57, 107...) is a "future" object: it
 * carries an enum value and a field this version of the spec does not list, as the real service
 * may send, so clients prove they keep what they do not know.
 *
 * `Builders` binds them to one dataset: generation calls each in dependency order, and routes
 * use it for objects created through the API (scopes' entitlements, campaigns, revoke tasks).
 */
import type { AccessReview, Task } from '../../shared/api-types';
import type { Entitlement, TenantCollections } from '../model';
import type { Random } from '../random';
import { appUsers } from './app-users';
import { apps } from './apps';
import { automations, MINIMUM_AUTOMATIONS } from './automations';
import { campaign, campaigns } from './campaigns';
import { BuildContext } from './context';
import { entitlements, scopeEntitlement } from './entitlements';
import { memberships } from './memberships';
import { identityUsers, userProfiles } from './people';
import { policies } from './policies';
import { routingRules } from './routing-rules';
import { scopes } from './scopes';
import { revokeTask, tasks, type RevokeTarget } from './tasks';
import { templates } from './templates';
import { toolsets } from './toolsets';

export { DATASET_NOW, membershipId } from './context';

export class Builders {
  /** Automations needed to show every step action and every trigger once. */
  readonly minimumAutomations = MINIMUM_AUTOMATIONS;
  private readonly ctx: BuildContext;

  constructor(seed: number, data: TenantCollections) {
    this.ctx = new BuildContext(seed, data);
  }

  identityUsers(count: number): string[] {
    return identityUsers(this.ctx, count);
  }

  /** The profile of every identity user (after every other collection: its draws are its own). */
  userProfiles(): void {
    userProfiles(this.ctx);
  }

  /** The policies the other objects name (after every other collection: their draws are their own). */
  policies(): void {
    policies(this.ctx);
  }

  apps(count: number): void {
    apps(this.ctx, count);
  }

  entitlements(count: number): void {
    entitlements(this.ctx, count);
  }

  appUsers(count: number): void {
    appUsers(this.ctx, count);
  }

  memberships(count: number): void {
    memberships(this.ctx, count);
  }

  /** The entitlement bound to a scope (created with it). */
  scopeEntitlement(id: string, scope: Parameters<typeof scopeEntitlement>[2]): Entitlement {
    return scopeEntitlement(this.ctx, id, scope);
  }

  scopes(count: number): void {
    scopes(this.ctx, count);
  }

  templates(count: number): void {
    templates(this.ctx, count);
  }

  /** Templates no campaign or automation names (build them after both). */
  unreferencedTemplates(count: number): void {
    templates(this.ctx, count, true);
  }

  /** A campaign's own fields (shared by generation, create and duplicate). */
  campaign(r: Random, init: Partial<AccessReview> & { id: string; createdAt: string }): AccessReview {
    return campaign(this.ctx, r, init);
  }

  campaigns(count: number): void {
    campaigns(this.ctx, count);
  }

  automations(count: number): void {
    automations(this.ctx, count);
  }

  toolsets(count: number): void {
    toolsets(this.ctx, count);
  }

  routingRules(count: number): void {
    routingRules(this.ctx, count);
  }

  tasks(count: number): void {
    tasks(this.ctx, count);
  }

  /** The revoke task a removal from an access profile creates. */
  revokeTask(target: RevokeTarget, requestedBy: string): Task {
    return revokeTask(this.ctx, target, requestedBy);
  }
}
