/**
 * The automation sheets: one row per automation, one per trigger and step, and one per setting of
 * each trigger and step (every member, in words).
 */
import { labelTarget } from './references';
import { AUTOMATION_STEP_ACTION_KEYS, AUTOMATION_TRIGGER_KEYS } from '../../shared/api-types/automation';
import type { StoredObject } from '../store/types';
import { collection as descriptorOf, getPath, str, targets } from '../collections';
import type { CellValue } from './canonical';
import { kindWords } from './cells';
import {
  cel,
  col,
  descriptorColumns,
  field,
  idColumn,
  jsonField,
  membersOf,
  namesFrom,
  objects,
  sheet,
  total,
  type ReportColumn,
  type ReportParams,
  type ReportSheet,
  type ReportSources,
} from './columns';
import { settings, type Setting } from './settings';

export function automationsSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params);
  const d = descriptorOf('automations');
  const columns: ReportColumn<StoredObject>[] = [
    idColumn,
    ...descriptorColumns(d, names, ['triggerKinds', 'stepKinds']),
    col('Triggers', 'text', (o) => membersList(getPath(o.json, 'triggers'), AUTOMATION_TRIGGER_KEYS), { source: 'triggers' }),
    col('Steps', 'text', (o) => membersList(getPath(o.json, 'automationSteps'), AUTOMATION_STEP_ACTION_KEYS, STEP_COMMON), {
      source: 'automationSteps',
    }),
    field('Description', 'description', 'text', { width: 40 }),
    field('Current version', 'currentVersion', 'int'),
    field('Circuit breaker observed', 'circuitBreaker.observedCount', 'int', { about: 'runs the circuit breaker counted in its period' }),
    field('Circuit breaker threshold', 'circuitBreaker.threshold', 'int'),
    field('Circuit breaker period', 'circuitBreaker.period'),
    field('Circuit breaker tripped', 'circuitBreaker.trippedAt', 'date'),
    field('Circuit breaker max', 'circuitBreakerMax', 'int'),
    field('Circuit breaker max period', 'circuitBreakerPeriod'),
    jsonField('Context', 'context', {}, names.wantPeopleAndPolicies()),
    jsonField('Annotations', 'annotations', {}, names),
  ];
  return sheet('Automations', columns, objects(sources, params, 'automations'), {
    names,
    collection: 'automations',
    total: total(sources, params, 'automations'),
    about: 'one row per automation',
  });
}

const STEP_COMMON = ['stepName', 'stepDisplayName', 'skipIfTrueCel'];

/** The kind of a trigger or step: the known member present, else the member the API wrote. */
function kindAsWritten(item: unknown, known: readonly string[], ignore: readonly string[] = []): string {
  const members = membersOf(item, ignore);
  return members.find((m) => known.includes(m)) ?? members[0] ?? '(none)';
}

function membersList(items: unknown, known: readonly string[], ignore: readonly string[] = []): string | null {
  if (!Array.isArray(items) || items.length === 0) return null;
  return items.map((i) => kindWords(kindAsWritten(i, known, ignore), known)).join(', ');
}

interface AutomationPart {
  automation: StoredObject;
  section: string;
  index: number;
  item: unknown;
  trigger: boolean;
}

const SECTIONS: { key: string; label: string; trigger: boolean }[] = [
  { key: 'triggers', label: 'trigger', trigger: true },
  { key: 'automationSteps', label: 'step', trigger: false },
  { key: 'draftTriggers', label: 'draft trigger', trigger: true },
  { key: 'draftAutomationSteps', label: 'draft step', trigger: false },
];

export function automationStepsSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params).wantPeopleAndPolicies();
  const columns: ReportColumn<AutomationPart>[] = [
    col('Automation ID', 'text', (p) => p.automation.id, { source: 'id' }),
    col('Automation', 'text', (p) => p.automation.title || str(getPath(p.automation.json, 'displayName'))),
    col('Section', 'enum', (p) => p.section, { source: SECTIONS.map((s) => s.key).join(', ') }),
    col('Index', 'int', (p) => p.index),
    col('Kind', 'enum', (p) => kindWords(partKind(p), partKeys(p))),
    col('Name', 'text', (p) =>
      p.trigger ? kindWords(partKind(p), partKeys(p)) : str(getPath(p.item, 'stepDisplayName')) || str(getPath(p.item, 'stepName')) || null,
    ),
    col('CEL expressions', 'text', (p) => cel(p.item), 40),
    col(
      'Targets',
      'text',
      (p) => {
        const found = targets(p.item).map((t) => labelTarget(t, names.label));
        return found.length ? found.join('\n') : null;
      },
      40,
    ),
  ];
  return sheet('Automation steps', columns, () => parts(sources, params), {
    names,
    about: 'one row per trigger and step of every automation (drafts included)',
  });
}

/** Each trigger and step of each automation, drafts included, in order. */
function* parts(sources: ReportSources, params: ReportParams): Iterable<AutomationPart> {
  for (const automation of objects(sources, params, 'automations')()) {
    for (const s of SECTIONS) {
      const items = getPath(automation.json, s.key);
      if (!Array.isArray(items)) continue;
      for (const [index, item] of items.entries()) yield { automation, section: s.label, index, item, trigger: s.trigger };
    }
  }
}

const partKeys = (p: AutomationPart): readonly string[] => (p.trigger ? AUTOMATION_TRIGGER_KEYS : AUTOMATION_STEP_ACTION_KEYS);

/** The member that is the part's kind, as written. */
const partKind = (p: AutomationPart): string => kindAsWritten(p.item, partKeys(p), p.trigger ? [] : STEP_COMMON);

interface PartSetting {
  part: AutomationPart;
  setting: Setting;
}

/** Every setting of every trigger and step: cron spec and time zone, wait durations, email subject and body, vault and TTL... */
export function stepSettingsSheet(sources: ReportSources, params: ReportParams): ReportSheet {
  const names = namesFrom(sources, params).wantPeopleAndPolicies();
  const columns: ReportColumn<PartSetting>[] = [
    col('Automation ID', 'text', (r) => r.part.automation.id, { source: 'id' }),
    col('Automation', 'text', (r) => r.part.automation.title || null, { width: 30 }),
    col('Section', 'enum', (r) => r.part.section),
    col('Index', 'int', (r) => r.part.index, {
      about: 'the position of the trigger or step in its section, from 0 (as on the Automation steps sheet)',
    }),
    col('Kind', 'enum', (r) => kindWords(partKind(r.part), partKeys(r.part))),
    col('Setting', 'text', (r) => r.setting.path || null, {
      width: 30,
      source: SECTIONS.map((s) => `${s.key}.*`).join(', '),
      about: "the member of the trigger or step, below its kind's member, as the API names it (items of a list numbered from 1)",
    }),
    col('Value', 'text', (r): CellValue => r.setting.value, {
      width: 40,
      about: 'its value in words: enum labels, durations in words, times in UTC; "set" for a marker',
    }),
  ];
  const source = function* (): Iterable<PartSetting> {
    for (const part of parts(sources, params)) {
      const kind = partKind(part);
      for (const setting of settings(part.item, '', names.label)) {
        // The kind's own members read below the kind ("subject", not "sendEmail.subject").
        const path = setting.path === kind ? '' : setting.path.startsWith(`${kind}.`) ? setting.path.slice(kind.length + 1) : setting.path;
        yield { part, setting: { ...setting, path } };
      }
    }
  };
  return sheet('Step settings', columns, source, {
    names,
    about: 'one row per setting of every trigger and step of every automation (drafts included)',
  });
}
