import { useMemo, useState, type ReactNode } from 'react';
import { FieldNote } from '../../components/FieldNote';
import type { ChangeWarning, MutationKind, OutboxItemView } from '../../../shared/contract';
import { ENUMS } from '../../../shared/enums';
import { TASK_EXPAND_CHOICES } from '../../../shared/task-expand';
import { validateScopeValue } from '../../../shared/validate';
import { AttestError, call, errorMessage } from '../../api';
import { useApp } from '../../stores/app';
import { enumText } from '../../components/format';
import { CampaignForm } from './CampaignForm';
import { TemplateEditor } from './TemplateEditor';
import { Picker } from '../../components/Picker';
import { currentStepOf, pickLoader, useLiveCheck, type PickFrom } from './pickers';

type Values = Record<string, string>;

function Field({
  id,
  label,
  value,
  onChange,
  error,
  hint,
  mono,
  required,
  pick,
  name,
}: {
  id: string;
  label: string;
  value: string;
  onChange(v: string): void;
  error?: string | null;
  hint?: ReactNode;
  mono?: boolean;
  required?: boolean;
  /** A picker over the store: what it offers, and the app chosen so far. */
  pick?: { from: PickFrom; appId: string };
  /** The name the store has for the id typed. */
  name?: string;
}) {
  if (pick)
    return (
      <Picker
        id={id}
        label={label}
        value={value}
        onChange={onChange}
        load={pickLoader(pick.from, pick.appId)}
        loadKey={`${pick.from}|${pick.appId}`}
        required={required}
        mono={mono}
        name={name}
        error={error}
        hint={hint}
      />
    );
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
        {required ? ' *' : ''}
      </label>
      <div className="row">
        <input
          id={id}
          className={`field grow ${mono ? 'mono' : ''}`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={Boolean(error)}
          spellCheck={false}
          autoComplete="off"
        />
        {name && (
          <span className="small" data-testid={`name-${id}`}>
            {name}
          </span>
        )}
      </div>
      <FieldNote id={id} error={error} hint={hint} />
    </div>
  );
}

function EnumSelect({
  id,
  label,
  values,
  value,
  onChange,
}: {
  id: string;
  label: string;
  values: readonly string[];
  value: string;
  onChange(v: string): void;
}) {
  return (
    <div>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="field" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">(not set)</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {enumText(null, v).label}
          </option>
        ))}
      </select>
    </div>
  );
}

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/** The fields of each kind with a simple form; update-template and create-campaign have forms of their own. */
const SIMPLE: Partial<Record<MutationKind, { key: string; label: string; required?: boolean; mono?: boolean; pick?: PickFrom }[]>> = {
  'create-scope': [
    { key: 'appId', label: 'App id', required: true, mono: true, pick: 'apps' },
    { key: 'xaaResourceServerId', label: 'Resource server id', required: true, mono: true, pick: 'resource-servers' },
    { key: 'scopeValue', label: 'Scope value', required: true, mono: true },
    { key: 'displayName', label: 'Display name' },
    { key: 'description', label: 'Description' },
  ],
  'remove-membership': [
    { key: 'appId', label: 'App id', required: true, mono: true, pick: 'apps' },
    { key: 'appEntitlementId', label: 'Entitlement id', required: true, mono: true, pick: 'entitlements' },
    { key: 'appUserId', label: 'App user id', required: true, mono: true, pick: 'app-users' },
  ],
  'escalate-task': [
    { key: 'taskId', label: 'Task id', required: true, mono: true, pick: 'tasks' },
    { key: 'policyStepId', label: 'Policy step id', mono: true },
    { key: 'comment', label: 'Comment' },
  ],
};

export const KIND_LABELS: Record<MutationKind, string> = {
  'create-scope': 'Create scope',
  'remove-membership': 'Remove membership',
  'escalate-task': 'Escalate task',
  'update-template': 'Update template',
  'create-campaign': 'Create campaign',
};

/** The text of each simple field of a queued item's input, for editing it. */
function valuesOf(input: Record<string, unknown>): Values {
  return Object.fromEntries(Object.entries(input).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
}

/**
 * A form per mutation kind, validated as you type by the spec's rules, then checked again by the
 * core. With `editing`, the form of that queued item, prefilled; saving edits it in place. With
 * `templateId`, the template editor opens on that template.
 */
export function ChangeForm({ onQueued, editing, templateId }: { onQueued(): void; editing?: OutboxItemView; templateId?: string }) {
  const outboxChanged = useApp((s) => s.outboxChanged);
  const [kind, setKind] = useState<MutationKind>(editing?.kind ?? (templateId ? 'update-template' : 'create-scope'));
  const [values, setValues] = useState<Values>(editing ? valuesOf(editing.input) : {});
  const [classification, setClassification] = useState(editing ? String(editing.input.classification ?? '') : '');
  const [state, setState] = useState(editing ? String(editing.input.state ?? '') : '');
  const [json, setJson] = useState(editing && !SIMPLE[editing.kind] ? JSON.stringify(editing.input, null, 2) : '');
  // An escalation's expandMask: the related objects its answer is to carry.
  const [expand, setExpand] = useState<string[]>(
    Array.isArray(editing?.input.expandMask) ? editing.input.expandMask.filter((p): p is string => typeof p === 'string') : [],
  );
  const [serverError, setServerError] = useState<{ field?: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [queued, setQueued] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<ChangeWarning[]>([]);

  const fields = SIMPLE[kind];
  const set = (key: string, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setServerError(null);
    setQueued(null);
  };

  // Inline checks: required fields, and the scope value's charset and byte length as you type.
  const problems = useMemo(() => {
    const out: Record<string, string> = {};
    for (const field of fields ?? [])
      if (field.required && !(values[field.key] ?? '').trim()) out[field.key] = `${field.label} is required`;
    if (kind === 'create-scope' && values.scopeValue) {
      const problem = validateScopeValue(values.scopeValue);
      if (problem) out.scopeValue = problem.message;
    }
    return out;
  }, [fields, values, kind]);
  const touched = (key: string) => values[key] !== undefined;
  // Checked by the core as you type, once the form holds a change: names of the ids, the store's warnings and refusals.
  const live = useLiveCheck(kind, fields ? input() : {}, Boolean(fields) && Object.keys(problems).length === 0, editing?.id ?? null);

  /** A task picked: its current policy step, from the store, unless one was typed. */
  function pickTask(taskId: string) {
    set('taskId', taskId);
    if ((values.policyStepId ?? '') !== '' || !taskId.trim()) return;
    currentStepOf(taskId.trim()).then(
      (step) => step && setValues((v) => (v.taskId === taskId && !v.policyStepId ? { ...v, policyStepId: step } : v)),
      () => undefined,
    );
  }

  function input(): Record<string, unknown> {
    if (!fields) return JSON.parse(json || '{}') as Record<string, unknown>;
    const result: Record<string, unknown> = {};
    for (const field of fields) if ((values[field.key] ?? '') !== '') result[field.key] = values[field.key];
    if (kind === 'create-scope') {
      if (classification) result.classification = classification;
      if (state) result.state = state;
    }
    if (kind === 'escalate-task' && expand.length > 0) result.expandMask = expand;
    return result;
  }

  async function submit() {
    setBusy(true);
    setServerError(null);
    try {
      const { item, warnings: found } = editing
        ? await call('outboxEdit', { id: editing.id, input: input() })
        : await call('outboxEnqueue', { kind, input: input() });
      setQueued(item.change);
      setWarnings(found);
      setValues({});
      setJson('');
      setExpand([]);
      outboxChanged();
      onQueued();
    } catch (error) {
      setServerError({ field: error instanceof AttestError ? error.field : undefined, message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  const blocked = fields ? Object.keys(problems).length > 0 : !json.trim();
  const scopeValue = values.scopeValue ?? '';
  const done = queued && (
    <>
      <div className="badge ok" role="status" style={{ alignSelf: 'flex-start' }}>
        {editing ? 'Saved' : 'Queued'}: {queued}
      </div>
      {warnings.map((w, i) => (
        <div key={i} className="badge warn" data-testid="change-warning" style={{ alignSelf: 'flex-start' }}>
          {w.message}
        </div>
      ))}
    </>
  );
  const kindPicker = (
    <div>
      <label className="label" htmlFor="change-kind">
        Change
      </label>
      <select
        id="change-kind"
        className="field"
        value={kind}
        disabled={Boolean(editing)}
        onChange={(e) => {
          setKind(e.target.value as MutationKind);
          setValues({});
          setServerError(null);
        }}
      >
        {(Object.keys(KIND_LABELS) as MutationKind[]).map((k) => (
          <option key={k} value={k}>
            {KIND_LABELS[k]}
          </option>
        ))}
      </select>
    </div>
  );

  if (kind === 'create-campaign') {
    return (
      <div className="card stack" style={{ maxWidth: 960 }} aria-label={editing ? 'Edit change' : 'New change'}>
        {kindPicker}
        <CampaignForm
          key={editing?.id ?? 'new'}
          editing={editing}
          onDone={(summary, found) => {
            setQueued(summary);
            setWarnings(found);
            onQueued();
          }}
        />
        {done}
      </div>
    );
  }

  if (kind === 'update-template') {
    return (
      <div className="card stack" style={{ maxWidth: 960 }} aria-label={editing ? 'Edit change' : 'New change'}>
        {kindPicker}
        <TemplateEditor
          key={editing?.id ?? 'new'}
          editing={editing}
          templateId={templateId}
          onDone={(summary) => {
            setQueued(summary);
            onQueued();
          }}
        />
        {done}
      </div>
    );
  }

  return (
    <form
      className="card stack"
      style={{ maxWidth: 720 }}
      aria-label={editing ? 'Edit change' : 'New change'}
      onSubmit={(event) => {
        event.preventDefault();
        if (!blocked) void submit();
      }}
    >
      {kindPicker}
      {fields ? (
        fields.map((field) => (
          <Field
            key={`${kind}-${field.key}`}
            id={field.key}
            label={field.label}
            mono={field.mono}
            required={field.required}
            value={values[field.key] ?? ''}
            onChange={(v) => (field.key === 'taskId' ? pickTask(v) : set(field.key, v))}
            pick={field.pick ? { from: field.pick, appId: values.appId ?? '' } : undefined}
            name={live.preview?.names[field.key]}
            error={
              (touched(field.key) ? problems[field.key] : null) ??
              (serverError?.field === field.key ? serverError.message : null) ??
              (live.problem?.field === field.key ? live.problem.message : null)
            }
            hint={
              field.key === 'scopeValue'
                ? `${utf8Bytes(scopeValue)} / 256 bytes · printable ASCII except space, " and \\`
                : field.key === 'policyStepId'
                  ? "Optional: the task's current step, taken from the store when you pick the task; left empty, the tenant uses the current step"
                  : undefined
            }
          />
        ))
      ) : (
        <div>
          <label className="label" htmlFor="change-json">
            Input (JSON)
          </label>
          <textarea
            id="change-json"
            className="field mono"
            rows={10}
            value={json}
            onChange={(e) => setJson(e.target.value)}
            spellCheck={false}
          />
          <div className="muted small">Validated by the same rules as the CLI's `attest queue add {kind}`.</div>
        </div>
      )}
      {kind === 'create-scope' && (
        <div className="grid cols-2">
          <EnumSelect
            id="classification"
            label="Classification"
            values={ENUMS.XaaScopeClassification}
            value={classification}
            onChange={setClassification}
          />
          <EnumSelect id="state" label="Initial state" values={ENUMS.XaaScopeState} value={state} onChange={setState} />
        </div>
      )}
      {kind === 'escalate-task' && (
        <fieldset className="stack" data-testid="expand-choice" style={{ border: 'none', padding: 0, margin: 0 }}>
          <legend className="label">Related objects the answer carries (expandMask)</legend>
          <div className="row wrap">
            {TASK_EXPAND_CHOICES.map((choice) => (
              <label key={choice.path} className="row small">
                <input
                  type="checkbox"
                  checked={expand.includes(choice.path)}
                  onChange={(e) => setExpand((now) => (e.target.checked ? [...now, choice.path] : now.filter((p) => p !== choice.path)))}
                />
                {choice.label} <span className="muted mono">{choice.path}</span>
              </label>
            ))}
          </div>
          <div className="muted small">
            Kept with the change once sent; an app is also stored as a fresh copy when the answer carries it whole.
          </div>
        </fieldset>
      )}
      {serverError && !fields?.some((f) => f.key === serverError.field) && (
        <div className="field-error" role="alert">
          {serverError.message}
        </div>
      )}
      {!queued &&
        live.preview?.warnings.map((w, i) => (
          <div key={i} className="badge warn" data-testid="check-warning" style={{ alignSelf: 'flex-start' }}>
            {w.message}
          </div>
        ))}
      {done}
      <div>
        <button type="submit" className="btn primary" disabled={blocked || busy}>
          {busy ? 'Saving…' : editing ? 'Save changes' : 'Queue change'}
        </button>
      </div>
    </form>
  );
}
