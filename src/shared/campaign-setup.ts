/**
 * How a new campaign is set up from what people know: a completion given as a date, a date-time or
 * a duration from now (`21d`, `36h`, `1209600s`), and a synced template whose settings it takes.
 * The create request has no template member, so "from a template" copies what the request does
 * take (policy, scope, notifications, description, the review's length) and records the template's
 * id beside them.
 */
import { toApiDuration } from './durations';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * The completion date (RFC 3339, UTC) from `text`: `2026-12-19` (the start of that day, UTC),
 * `2026-12-19T17:00:00Z`, or a duration counted from `now` (`21d`); '' for no text; null when it
 * is none of these.
 */
export function completionDateOf(text: string, now: Date): string | null {
  const t = text.trim();
  if (t === '') return '';
  if (DATE.test(t)) return calendarDate(t) ? `${t}T00:00:00Z` : null;
  if (DATE_TIME.test(t)) return Number.isNaN(Date.parse(t)) || !calendarDate(t.slice(0, 10)) ? null : t.toUpperCase();
  const duration = toApiDuration(t);
  if (duration === null) return null;
  const end = new Date(now.getTime() + Number(duration.slice(0, -1)) * 1000);
  return Number.isNaN(end.getTime()) ? null : `${end.toISOString().slice(0, 19)}Z`;
}

function calendarDate(day: string): boolean {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCFullYear() === y && probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a campaign takes from a template (its synced JSON): the members of a create request it has values for. */
export interface TemplateSetup {
  templateId: string;
  policyId?: string;
  description?: string;
  scopeV2?: Record<string, unknown>;
  notificationConfig?: { sendClose?: boolean; sendKickoff?: boolean; sendReminders?: boolean };
  /** The template's review length, in the API's form (`1814400s`), for the completion date. */
  duration?: string;
}

export function setupFromTemplate(template: Record<string, unknown>): TemplateSetup {
  const setup: TemplateSetup = { templateId: typeof template.id === 'string' ? template.id : '' };
  if (typeof template.policyId === 'string' && template.policyId !== '') setup.policyId = template.policyId;
  if (typeof template.description === 'string' && template.description !== '') setup.description = template.description;
  // A template's scope selector (`scope`) is the same object a campaign calls `scopeV2`.
  if (isObject(template.scope) && Object.keys(template.scope).length > 0) setup.scopeV2 = template.scope;
  if (isObject(template.notificationConfig)) {
    const n = template.notificationConfig;
    setup.notificationConfig = {};
    for (const key of ['sendClose', 'sendKickoff', 'sendReminders'] as const)
      if (typeof n[key] === 'boolean') setup.notificationConfig[key] = n[key];
  }
  if (typeof template.accessReviewDuration === 'string') {
    const duration = toApiDuration(template.accessReviewDuration);
    if (duration && duration !== '0s') setup.duration = duration;
  }
  return setup;
}
