import { describe, expect, it } from 'vitest';

import {
  ACCESS_REVIEW_STATE_VALUES,
  AUTOMATION_STATUS_FILTER_VALUES,
  EMERGENCY_STATUS_FILTER_VALUES,
  ENUMS,
  EXTERNAL_REF_SOURCE_VALUES,
  INCLUSION_USER_STATUS_VALUES,
  STORE_CREDENTIAL_AUTH_TYPE_VALUES,
  TASK_ORIGIN_VALUES,
  TASK_TYPE_ACTION_KIND_VALUES,
  TRIGGER_TYPE_VALUES,
  USER_STATUS_VALUES,
  XAA_SCOPE_CLASSIFICATION_VALUES,
  XAA_SCOPE_SOURCE_VALUES,
  XAA_SCOPE_STATE_VALUES,
  enumLabel,
  enumPrefix,
  isEnumName,
  isKnownEnumValue,
  type TriggerType,
  type XaaScopeState,
} from '../../src/shared/enums';

// Open enums accept what the service may add later, and still hold the known values.
const future: XaaScopeState = 'XAA_SCOPE_STATE_ARCHIVED';
const known: TriggerType = 'TRIGGER_TYPE_WEBHOOK';

const registry = Object.entries(ENUMS) as [string, readonly string[]][];

describe('the spec lists', () => {
  it('scope enums hold exactly the values of the spec tables, UNSPECIFIED first', () => {
    expect([...XAA_SCOPE_CLASSIFICATION_VALUES]).toEqual([
      'XAA_SCOPE_CLASSIFICATION_UNSPECIFIED',
      'XAA_SCOPE_CLASSIFICATION_READ',
      'XAA_SCOPE_CLASSIFICATION_WRITE',
      'XAA_SCOPE_CLASSIFICATION_DESTRUCTIVE',
      'XAA_SCOPE_CLASSIFICATION_SENSITIVE',
      'XAA_SCOPE_CLASSIFICATION_DANGEROUS',
    ]);
    expect([...XAA_SCOPE_STATE_VALUES]).toEqual([
      'XAA_SCOPE_STATE_UNSPECIFIED',
      'XAA_SCOPE_STATE_PENDING_REVIEW',
      'XAA_SCOPE_STATE_ENABLED',
      'XAA_SCOPE_STATE_DISABLED',
      'XAA_SCOPE_STATE_REMOVED',
    ]);
    expect([...XAA_SCOPE_SOURCE_VALUES]).toEqual([
      'XAA_SCOPE_SOURCE_UNSPECIFIED',
      'XAA_SCOPE_SOURCE_ADMIN_DECLARED',
      'XAA_SCOPE_SOURCE_DISCOVERED',
    ]);
  });

  // Every enum family the spec names by prefix: each has its UNSPECIFIED member and, where the spec
  // shows only that member, the values of the vendor document.
  const specFamilies = `APP_USER_DOMAIN APP_USER_TYPE APP_USER_STATUS ACCESS_PROFILE_FILTER_TYPE GRANT_SOURCE_FILTER GRANT_FILTER_TYPE
    PRINCIPAL_TYPE_FILTER ACCESS_REVIEW_TASK_COLUMN FREQUENCY ACCURACY_ISSUE_ACTION CLOSE_DECISION ACCESS_REVIEW_VIEW_TYPE
    ACCESS_REVIEW_SCOPE_TYPE ACCESS_REVIEW_STATE ACCESS_REVIEW_ERROR_STATE TRIGGER_TYPE CIRCUIT_BREAKER_PERIOD
    STORE_CREDENTIAL_AUTH_TYPE STORE_CREDENTIAL_VAULT_TYPE TASK_TYPE TASK_USER_RELATION GRANT_JUSTIFICATION_TYPE
    TASK_ACTION_TYPE TASK_ORIGIN POLICY_STEP_STATE ACTION_INSTANCE_STATE APPROVAL_INSTANCE_STATE FORM_INSTANCE_STATE
    PROVISION_INSTANCE_STATE WAIT_INSTANCE_STATE AUTOMATION_STATUS_FILTER XAA_SCOPE_CLASSIFICATION XAA_SCOPE_STATE XAA_SCOPE_SOURCE`
    .split(/\s+/)
    .filter(Boolean);

  it.each(specFamilies)('%s_* is registered with its UNSPECIFIED member and real values', (family) => {
    const match = registry.find(([, values]) => values[0] === `${family}_UNSPECIFIED`);
    expect(match, `no enum starts with ${family}_UNSPECIFIED`).toBeDefined();
    const values = match?.[1] ?? [];
    expect(values.length).toBeGreaterThan(1);
    expect(values.every((v) => v.startsWith(`${family}_`))).toBe(true);
  });

  it('values the spec leaves to the vendor document are there (samples)', () => {
    expect(ACCESS_REVIEW_STATE_VALUES).toContain('ACCESS_REVIEW_STATE_OPEN');
    expect(ACCESS_REVIEW_STATE_VALUES).toContain('ACCESS_REVIEW_STATE_CLOSED');
    expect(AUTOMATION_STATUS_FILTER_VALUES).toEqual([
      'AUTOMATION_STATUS_FILTER_UNSPECIFIED',
      'AUTOMATION_STATUS_FILTER_ON',
      'AUTOMATION_STATUS_FILTER_OFF',
    ]);
    expect(TRIGGER_TYPE_VALUES).toContain('TRIGGER_TYPE_SCHEDULE_NO_USER');
    expect(TASK_ORIGIN_VALUES).toContain('TASK_ORIGIN_API');
    expect(USER_STATUS_VALUES).toEqual(['UNKNOWN', 'ENABLED', 'DISABLED', 'DELETED']);
    expect(INCLUSION_USER_STATUS_VALUES).toEqual(['USER_UNKNOWN', 'USER_ENABLED', 'USER_DISABLED', 'USER_DELETED']);
    expect(EXTERNAL_REF_SOURCE_VALUES).toEqual(['UNSPECIFIED', 'JIRA']);
  });
});

describe('the ENUMS registry', () => {
  it.each(registry)('%s: zero value first, no duplicates, upper snake case', (_name, values) => {
    expect(values[0]).toMatch(/(^|_)(UNSPECIFIED|UNKNOWN)$/);
    expect(new Set(values).size).toBe(values.length);
    for (const value of values) expect(value).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
  });

  it('names each exported array by its type name', () => {
    expect(ENUMS.XaaScopeState).toBe(XAA_SCOPE_STATE_VALUES);
    expect(ENUMS.TriggerType).toBe(TRIGGER_TYPE_VALUES);
    expect(ENUMS.StoreCredentialAuthType).toBe(STORE_CREDENTIAL_AUTH_TYPE_VALUES);
    expect(registry.length).toBeGreaterThanOrEqual(60);
  });

  it('isEnumName knows the registered names only', () => {
    expect(isEnumName('XaaScopeClassification')).toBe(true);
    expect(isEnumName('AccessReviewState')).toBe(true);
    expect(isEnumName('NoSuchEnum')).toBe(false);
    expect(isEnumName('toString')).toBe(false);
    expect(isEnumName('__proto__')).toBe(false);
  });
});

describe('isKnownEnumValue', () => {
  it('accepts listed values', () => {
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, 'XAA_SCOPE_STATE_ENABLED')).toBe(true);
    expect(isKnownEnumValue(TRIGGER_TYPE_VALUES, known)).toBe(true);
  });

  it('flags unknown strings, other cases and non-strings without throwing', () => {
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, future)).toBe(false);
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, 'xaa_scope_state_enabled')).toBe(false);
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, 'XAA_SCOPE_STATE_ENABLED ')).toBe(false);
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, 'TRIGGER_TYPE_WEBHOOK')).toBe(false);
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, '')).toBe(false);
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, 'length')).toBe(false);
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, 2)).toBe(false);
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, null)).toBe(false);
    expect(isKnownEnumValue(XAA_SCOPE_STATE_VALUES, undefined)).toBe(false);
  });
});

describe('enumLabel', () => {
  it('shortens known values to a readable label', () => {
    expect(enumLabel(XAA_SCOPE_STATE_VALUES, 'XAA_SCOPE_STATE_PENDING_REVIEW')).toEqual({
      value: 'XAA_SCOPE_STATE_PENDING_REVIEW',
      label: 'Pending review',
      known: true,
      absent: false,
    });
    expect(enumLabel(XAA_SCOPE_STATE_VALUES, 'XAA_SCOPE_STATE_UNSPECIFIED').label).toBe('Unspecified');
    expect(enumLabel(TRIGGER_TYPE_VALUES, 'TRIGGER_TYPE_GRANT_FOUND').label).toBe('Grant found');
    expect(enumLabel(TASK_ORIGIN_VALUES, 'TASK_ORIGIN_API').label).toBe('API');
    expect(enumLabel(STORE_CREDENTIAL_AUTH_TYPE_VALUES, 'STORE_CREDENTIAL_AUTH_TYPE_SSO_INTERNAL').label).toBe('SSO internal');
  });

  it('handles enums without an UNSPECIFIED member or without a shared prefix', () => {
    expect(enumLabel(USER_STATUS_VALUES, 'DISABLED').label).toBe('Disabled');
    expect(enumLabel(INCLUSION_USER_STATUS_VALUES, 'USER_ENABLED').label).toBe('Enabled');
    expect(enumLabel(EXTERNAL_REF_SOURCE_VALUES, 'JIRA').label).toBe('Jira');
    expect(enumLabel(EMERGENCY_STATUS_FILTER_VALUES, 'NON_EMERGENCY').label).toBe('Non emergency');
    expect(enumLabel(TASK_TYPE_ACTION_KIND_VALUES, 'TYPE_TOOL_CALL').label).toBe('Tool call');
  });

  it('returns unknown values exactly as written, flagged unknown', () => {
    expect(enumLabel(XAA_SCOPE_STATE_VALUES, 'XAA_SCOPE_STATE_QUARANTINED')).toEqual({
      value: 'XAA_SCOPE_STATE_QUARANTINED',
      label: 'XAA_SCOPE_STATE_QUARANTINED',
      known: false,
      absent: false,
    });
    expect(enumLabel(XAA_SCOPE_STATE_VALUES, 'something else entirely').label).toBe('something else entirely');
  });

  it('tells an absent value from an unknown one', () => {
    for (const missing of [undefined, null, '']) {
      expect(enumLabel(XAA_SCOPE_STATE_VALUES, missing)).toEqual({ value: '', label: '', known: false, absent: true });
    }
  });

  it.each(registry)('%s: every label is non-empty, free of underscores and distinct', (_name, values) => {
    const labels = values.map((v) => enumLabel(values, v));
    expect(labels.every((l) => l.known && !l.absent && l.label.length > 0 && !l.label.includes('_'))).toBe(true);
    expect(new Set(labels.map((l) => l.label)).size).toBe(values.length);
  });
});

describe('enumPrefix', () => {
  it.each(registry)('%s: every value starts with the prefix and is longer than it', (_name, values) => {
    const prefix = enumPrefix(values);
    expect(values.every((v) => v.startsWith(prefix) && v.length > prefix.length)).toBe(true);
  });

  it('takes the UNSPECIFIED member prefix, else the common prefix at a word boundary', () => {
    expect(enumPrefix(XAA_SCOPE_STATE_VALUES)).toBe('XAA_SCOPE_STATE_');
    expect(enumPrefix(INCLUSION_USER_STATUS_VALUES)).toBe('USER_');
    expect(enumPrefix(USER_STATUS_VALUES)).toBe('');
    expect(enumPrefix(['COLOR_RED', 'COLOR_ROSE'])).toBe('COLOR_');
    expect(enumPrefix(['ONLY_ONE'])).toBe('');
  });
});
