/**
 * The fields of an access review template that an update may set (the others are set by the
 * server), and how the template editor shows each: a line of text, yes/no, or JSON for numbers,
 * lists and nested settings. The core checks each field's value (src/main/outbox/kinds.ts, typed
 * against this list); the editor and the core never disagree on which fields exist.
 */
export const TEMPLATE_UPDATABLE_FIELDS = {
  displayName: 'text',
  description: 'text',
  reviewInstructions: 'text',
  policyId: 'text',
  accessReviewDuration: 'text',
  nextScheduledCampaignAt: 'text',
  autoStartCampaign: 'bool',
  autoCloseCampaign: 'bool',
  autoGenerateReport: 'bool',
  exemptCertifiedAccessConflicts: 'bool',
  isCampaignScheduleEnabled: 'bool',
  usePolicyOverride: 'bool',
  occurrences: 'json',
  notificationConfig: 'json',
  recurrenceRule: 'json',
  scope: 'json',
  inclusionScope: 'json',
  columnConfig: 'json',
  reviewerAttributeConfig: 'json',
  signatureConfig: 'json',
  chatChannel: 'json',
  annotations: 'json',
} as const satisfies Record<string, 'text' | 'bool' | 'json'>;

export type TemplateUpdatableField = keyof typeof TEMPLATE_UPDATABLE_FIELDS;
