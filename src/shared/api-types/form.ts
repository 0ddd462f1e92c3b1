/** Task forms: fields, typed bodies, validation rules and relationships (spec "Task view", "Task form"). */
import type { SelectType, WellKnownRegex } from '../enums';
import type { Duration, Int64String, MarkerObject, Timestamp } from './common';

// ---- Validation rules (protoc-gen-validate) ----

/** Rules of a numeric value; `N` is `number` for 32-bit and floating kinds, a decimal string for 64-bit kinds. */
export interface NumberRules<N> {
  const?: N;
  gt?: N;
  gte?: N;
  lt?: N;
  lte?: N;
  in?: N[] | null;
  notIn?: N[] | null;
  ignoreEmpty?: boolean;
}

/** Rules of a 64-bit integer field (`int64Field.rules`). */
export type Int64Rules = NumberRules<Int64String>;

/** Rules of a boolean field (`boolField.rules`). */
export interface BoolRules {
  const?: boolean;
}

/** Rules of a string field (`stringField.rules`, repeated `items.string`). */
export interface StringRules {
  const?: string;
  in?: string[] | null;
  notIn?: string[] | null;
  pattern?: string;
  prefix?: string;
  suffix?: string;
  contains?: string;
  notContains?: string;
  len?: Int64String;
  minLen?: Int64String;
  maxLen?: Int64String;
  lenBytes?: Int64String;
  minBytes?: Int64String;
  maxBytes?: Int64String;
  email?: boolean | null;
  hostname?: boolean | null;
  ip?: boolean | null;
  ipv4?: boolean | null;
  ipv6?: boolean | null;
  uri?: boolean | null;
  uriRef?: boolean | null;
  uuid?: boolean | null;
  address?: boolean | null;
  wellKnownRegex?: WellKnownRegex;
  strict?: boolean;
  ignoreEmpty?: boolean;
}

/** Rules of a bytes value (base64 strings). */
export interface BytesRules {
  const?: string;
  contains?: string;
  in?: string[] | null;
  notIn?: string[] | null;
  pattern?: string;
  prefix?: string;
  suffix?: string;
  len?: Int64String;
  minLen?: Int64String;
  maxLen?: Int64String;
  ip?: boolean | null;
  ipv4?: boolean | null;
  ipv6?: boolean | null;
  ignoreEmpty?: boolean;
}

/** Rules of an enum value (numbers of the enum). */
export interface EnumRules {
  const?: number;
  definedOnly?: boolean;
  in?: number[] | null;
  notIn?: number[] | null;
}

/** Rules of a duration value. */
export interface DurationRules {
  const?: Duration;
  gt?: Duration;
  gte?: Duration;
  lt?: Duration;
  lte?: Duration;
  in?: string[] | null;
  notIn?: string[] | null;
  required?: boolean;
}

/** Rules of a timestamp value. */
export interface TimestampRules {
  const?: Timestamp;
  gt?: Timestamp;
  gte?: Timestamp;
  lt?: Timestamp;
  lte?: Timestamp;
  gtNow?: boolean;
  ltNow?: boolean;
  within?: Duration;
  required?: boolean;
}

/** Rules of a google.protobuf.Any value. */
export interface AnyRules {
  in?: string[] | null;
  notIn?: string[] | null;
  required?: boolean;
}

/** Rules of a message value. */
export interface MessageRules {
  required?: boolean;
  skip?: boolean;
}

/** Rules of a map value. */
export interface MapRules {
  keys?: FieldRules | null;
  values?: FieldRules | null;
  minPairs?: Int64String;
  maxPairs?: Int64String;
  noSparse?: boolean;
  ignoreEmpty?: boolean;
}

/** Rules of a repeated value (`stringSliceField.rules`). */
export interface RepeatedRules {
  items?: FieldRules | null;
  minItems?: Int64String;
  maxItems?: Int64String;
  unique?: boolean;
  ignoreEmpty?: boolean;
}

/** Rules of one value, by its type (the `items` of repeated rules, the keys and values of map rules). */
export interface FieldRules {
  any?: AnyRules | null;
  bool?: BoolRules | null;
  bytes?: BytesRules | null;
  double?: NumberRules<number> | null;
  duration?: DurationRules | null;
  enum?: EnumRules | null;
  fixed32?: NumberRules<number> | null;
  fixed64?: NumberRules<Int64String> | null;
  float?: NumberRules<number> | null;
  int32?: NumberRules<number> | null;
  int64?: NumberRules<Int64String> | null;
  map?: MapRules | null;
  message?: MessageRules | null;
  repeated?: RepeatedRules | null;
  sfixed32?: NumberRules<number> | null;
  sfixed64?: NumberRules<Int64String> | null;
  sint32?: NumberRules<number> | null;
  sint64?: NumberRules<Int64String> | null;
  string?: StringRules | null;
  timestamp?: TimestampRules | null;
  uint32?: NumberRules<number> | null;
  uint64?: NumberRules<Int64String> | null;
}

/** Rules of a string map field. */
export interface StringMapRules {
  isRequired?: boolean;
  validateEmpty?: boolean;
}

// ---- Typed field bodies ----

/** A checkbox or toggle. */
export interface BoolField {
  defaultValue?: boolean;
  rules?: BoolRules | null;
  checkboxField?: MarkerObject | null;
  toggleField?: MarkerObject | null;
}

/** A number input. */
export interface Int64Field {
  defaultValue?: Int64String | null;
  placeholder?: string;
  rules?: Int64Rules | null;
  numberField?: { maxValue?: Int64String; minValue?: Int64String; step?: Int64String } | null;
}

/** A file upload. */
export interface FileField {
  acceptedFileTypes?: string[] | null;
  /** Bytes, as a decimal string. */
  maxFileSize?: Int64String | null;
  fileInputField?: MarkerObject | null;
}

/** An OAuth 2 connection field. */
export interface Oauth2Field {
  oauth2FieldView?: MarkerObject | null;
}

/** One option of a select field. */
export interface SelectOption {
  value?: string;
  displayName?: string;
  description?: string;
}

/** String variant `selectField`. */
export interface SelectField {
  options?: SelectOption[] | null;
  type?: SelectType;
}

/** String variant `textField`. */
export interface TextField {
  multiline?: boolean;
  suffix?: string | null;
}

/** String variant `dateField`. */
export interface DateField {
  defaultToToday?: boolean;
  minDate?: string;
  maxDate?: string;
  minDaysFromToday?: number | null;
  maxDaysFromToday?: number | null;
}

/** Picker of a C1 user. */
export interface UserPickerFilter {
  userIds?: string[] | null;
  excludeUserIds?: string[] | null;
  includeDeactivated?: boolean;
}

/** String variant `pickerField`: one of an app user, a C1 user or a resource picker. */
export interface PickerField {
  appUserPicker?: { appId?: string } | null;
  c1UserPicker?: UserPickerFilter | null;
  resourcePicker?: { appId?: string; resourceTypeId?: string } | null;
}

/** A string input, with one variant: text, password, picker, select or date. */
export interface StringField {
  defaultValue?: string;
  placeholder?: string;
  rules?: StringRules | null;
  textField?: TextField | null;
  passwordField?: MarkerObject | null;
  pickerField?: PickerField | null;
  selectField?: SelectField | null;
  dateField?: DateField | null;
}

/** The variants of a string field. */
export const STRING_FIELD_VARIANT_KEYS = [
  'textField',
  'passwordField',
  'pickerField',
  'selectField',
  'dateField',
] as const satisfies readonly (keyof StringField)[];

/** A key-value input. */
export interface StringMapField {
  defaultValue?: Record<string, string>;
  rules?: StringMapRules | null;
}

/** A list-of-strings input (chips or a multi picker). */
export interface StringSliceField {
  defaultValues?: string[] | null;
  placeholder?: string;
  rules?: RepeatedRules | null;
  chipsField?: MarkerObject | null;
  pickerField?: PickerField | null;
}

// ---- Fields, groups, relationships, the form ----

/** One form field: its names and flags, the three configs, and exactly one typed body. */
export interface FormField {
  name?: string;
  displayName?: string;
  description?: string;
  readOnly?: boolean;
  required?: boolean;
  adminConfig?: { defaultValueCel?: string; showToUser?: boolean } | null;
  sharedConfig?: { defaultValueCel?: string; inputTransformationCel?: string; lockDefaultValues?: boolean } | null;
  userConfig?: { inputTransformationCel?: string } | null;
  boolField?: BoolField | null;
  int64Field?: Int64Field | null;
  fileField?: FileField | null;
  oauth2Field?: Oauth2Field | null;
  stringField?: StringField | null;
  stringMapField?: StringMapField | null;
  stringSliceField?: StringSliceField | null;
}

/** The typed bodies of a form field; `kindOf(field, FORM_FIELD_BODY_KEYS)` names a field's type. */
export const FORM_FIELD_BODY_KEYS = [
  'boolField',
  'int64Field',
  'fileField',
  'oauth2Field',
  'stringField',
  'stringMapField',
  'stringSliceField',
] as const satisfies readonly (keyof FormField)[];

/** A group of fields shown together. */
export interface FormFieldGroup {
  name?: string;
  displayName?: string;
  helpText?: string;
  default?: boolean;
  fields?: string[] | null;
}

/** A relationship between fields: one kind member among `atLeastOne`, `mutuallyExclusive`, `requiredTogether`, `dependentOn`. */
export interface FormFieldRelationship {
  fieldNames?: string[] | null;
  atLeastOne?: MarkerObject | null;
  mutuallyExclusive?: MarkerObject | null;
  requiredTogether?: MarkerObject | null;
  dependentOn?: { dependencyFieldNames?: string[] | null } | null;
}

/** The relationship kinds. */
export const FORM_FIELD_RELATIONSHIP_KEYS = [
  'atLeastOne',
  'mutuallyExclusive',
  'requiredTogether',
  'dependentOn',
] as const satisfies readonly (keyof FormFieldRelationship)[];

/** A task form. */
export interface TaskForm {
  id?: string;
  displayName?: string;
  description?: string;
  fieldGroups?: FormFieldGroup[] | null;
  fieldRelationships?: FormFieldRelationship[] | null;
  fields?: FormField[] | null;
}
