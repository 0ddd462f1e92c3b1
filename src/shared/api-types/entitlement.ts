/** App entitlements (spec "Remove entitlement membership"). */

/** Body of `DELETE /api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/remove-membership`. Applies to catalog, group and profile entitlements. */
export interface RemoveMembershipRequest {
  /** The app user whose membership is removed. Sent as the body of the DELETE request. */
  appUserId?: string;
}

/** Answer of `DELETE /api/v1/apps/{app_id}/entitlements/{app_entitlement_id}/remove-membership`. */
export interface RemoveMembershipResponse {
  /** The revoke (joiner-mover-leaver) task created to deprovision; set when the entitlement is an access profile. */
  revokeTaskId?: string;
}
