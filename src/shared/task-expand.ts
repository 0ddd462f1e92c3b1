/**
 * The expand paths of a task action's `expandMask` an escalation offers as a choice: the related
 * objects its answer then carries in `expanded` (the vendor's task expand paths; `*` is all).
 */
export const TASK_EXPAND_CHOICES = [
  { path: 'app_id', label: 'App' },
  { path: 'app_user_id', label: 'App user' },
  { path: 'app_entitlement_ids', label: 'Entitlements' },
  { path: 'access_review_id', label: 'Access review' },
] as const;
