/**
 * The tenant's identity users and policies (vendor document, c1.api.user.v1 and c1.api.policy.v1):
 * the people that owners, reviewers, approvers and creators name by id, and the policies that
 * templates, campaigns, apps and tasks name by id. Read by sync so lists and reports show names.
 */
import type { AnyMessage, ObjectPermissions, Page, Timestamp } from './common';
import type { PolicyType } from '../enums';
import type { Policy } from './policy';

/** A user of the tenant's directory (vendor field set, abridged to what Attest reads; the rest is kept as received). */
export interface IdentityUser {
  id?: string;
  displayName?: string;
  email?: string;
  emails?: string[] | null;
  username?: string;
  usernames?: string[] | null;
  department?: string;
  jobTitle?: string;
  employmentStatus?: string;
  employmentType?: string;
  managerIds?: string[] | null;
  directoryIds?: string[] | null;
  roleIds?: string[] | null;
  delegatedUserId?: string;
  status?: string;
  directoryStatus?: string;
  origin?: string;
  type?: string;
  createdAt?: Timestamp;
  updatedAt?: Timestamp;
  deletedAt?: Timestamp;
}

/** A row of `POST /search/users`: the user with JSONPaths into `expanded`. */
export interface UserView {
  user?: IdentityUser | null;
  userId?: string;
  delegatedUserPath?: string;
  directoriesPath?: string;
  managersPath?: string;
  rolesPath?: string;
  objectPermissions?: ObjectPermissions | null;
}

/** Body of `POST /api/v1/search/users` (abridged). */
export interface SearchUsersRequest {
  ids?: string[] | null;
  excludeIds?: string[] | null;
  email?: string;
  query?: string;
  userStatuses?: string[] | null;
  pageSize?: number;
  pageToken?: string;
}
export interface SearchUsersResponse extends Page<UserView> {
  expanded?: AnyMessage[] | null;
}

/** Body of `POST /api/v1/search/policies` (abridged). */
export interface SearchPoliciesRequest {
  displayName?: string;
  excludePolicyIds?: string[] | null;
  includeDeleted?: boolean;
  policyTypes?: PolicyType[] | null;
  query?: string;
  refs?: { id?: string }[] | null;
  pageSize?: number;
  pageToken?: string;
}
export type SearchPoliciesResponse = Page<Policy>;
