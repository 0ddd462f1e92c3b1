/**
 * Create campaign as a form: name, description, owners picked by name (their email beside), set up
 * from a template or as a duplicate of a campaign, a policy, a completion date (a date or a
 * duration from now) and notifications. The JSON stays as an advanced view of the same input:
 * editing either changes the other. Checked by the core as you type, as every change form is.
 */
import { useState } from 'react';
import type { ChangeWarning, OutboxItemView } from '../../../shared/contract';
import { completionDateOf, setupFromTemplate } from '../../../shared/campaign-setup';
import { durationInWords } from '../../../shared/durations';
import { AttestError, call, errorMessage } from '../../api';
import { Picker, type PickOption } from '../../components/Picker';
import { useApp } from '../../stores/app';
import { pickLoader, useLiveCheck } from './pickers';

type Draft = Record<string, unknown>;

const NOTIFICATIONS = [
  ['sendKickoff', 'Kickoff'],
  ['sendReminders', 'Reminders'],
  ['sendClose', 'Close'],
] as const;

const textOf = (v: unknown) => (typeof v === 'string' ? v : '');
const idsOf = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The input as it is sent to the core: members left empty are left out. */
function cleaned(draft: Draft): Draft {
  return Object.fromEntries(Object.entries(draft).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)));
}

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export function CampaignForm({ editing, onDone }: { editing?: OutboxItemView; onDone(summary: string, warnings: ChangeWarning[]): void }) {
  const outboxChanged = useApp((s) => s.outboxChanged);
  const [draft, setDraft] = useState<Draft>(editing ? { ...editing.input } : {});
  // The JSON as typed while it is being edited (null: shown from the draft).
  const [jsonText, setJsonText] = useState<string | null>(null);
  const [jsonProblem, setJsonProblem] = useState<string | null>(null);
  const [completionText, setCompletionText] = useState(textOf(editing?.input.completionDate));
  const [owner, setOwner] = useState('');
  const [ownerTitles, setOwnerTitles] = useState<Record<string, string>>({});
  const [template, setTemplate] = useState(textOf(editing?.input.templateId));
  const [templateNote, setTemplateNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ field?: string; message: string } | null>(null);

  const input = cleaned(draft);
  const owners = idsOf(draft.ownerIds);
  const completion = completionDateOf(completionText, new Date());
  const ready = !jsonProblem && completion !== null && textOf(draft.displayName).trim() !== '' && owners.length > 0;
  const live = useLiveCheck('create-campaign', input, ready, editing?.id ?? null);
  const names = live.preview?.names ?? {};
  const refusal = problem ?? live.problem;
  const errorAt = (field: string) => (refusal?.field === field ? refusal.message : null);
  const notifications = isObject(draft.notificationConfig) ? draft.notificationConfig : {};

  /** A change from the form: the JSON view follows. */
  function update(changes: Draft) {
    setDraft((d) => ({ ...d, ...changes }));
    setJsonText(null);
    setJsonProblem(null);
    setProblem(null);
  }

  function editJson(text: string) {
    setJsonText(text);
    setProblem(null);
    try {
      const parsed = JSON.parse(text) as unknown;
      if (!isObject(parsed)) throw new Error('the input must be a JSON object ({ … })');
      setJsonProblem(null);
      setDraft(parsed);
      // The completion as typed (`21d`) stays while the JSON keeps the date it gave.
      const completion = textOf(parsed.completionDate);
      if (completion !== textOf(draft.completionDate)) setCompletionText(completion);
      setTemplate(textOf(parsed.templateId));
    } catch (error) {
      setJsonProblem(`Not valid JSON: ${(error as Error).message}`);
    }
  }

  function addOwner(option: PickOption) {
    setOwnerTitles((t) => ({ ...t, [option.id]: option.title }));
    if (!owners.includes(option.id)) update({ ownerIds: [...owners, option.id] });
  }

  function setCompletion(text: string) {
    setCompletionText(text);
    const date = completionDateOf(text, new Date());
    update({ completionDate: date ?? text });
  }

  /** A template picked: the campaign takes its policy, scope, notifications, description and length. */
  async function pickTemplate(id: string) {
    update({ templateId: id });
    setTemplateNote(null);
    try {
      const found = await call('getObject', { collection: 'templates', id });
      if (!found.object) return;
      const setup = setupFromTemplate(JSON.parse(found.object.raw) as Record<string, unknown>);
      const taken: string[] = [];
      const changes: Draft = { templateId: id };
      if (setup.policyId) {
        changes.policyId = setup.policyId;
        taken.push('policy');
      }
      if (setup.scopeV2) {
        changes.scopeV2 = setup.scopeV2;
        taken.push('scope');
      }
      if (setup.notificationConfig) {
        changes.notificationConfig = setup.notificationConfig;
        taken.push('notifications');
      }
      if (setup.description && !textOf(draft.description)) {
        changes.description = setup.description;
        taken.push('description');
      }
      if (setup.duration) {
        setCompletionText(setup.duration);
        changes.completionDate = completionDateOf(setup.duration, new Date());
        taken.push(`completion in ${durationInWords(setup.duration)}`);
      }
      update(changes);
      setTemplateNote(taken.length ? `Taken from the template: ${taken.join(', ')}.` : 'The template sets nothing a new campaign takes.');
    } catch (error) {
      setTemplateNote(`The template could not be read from the store: ${errorMessage(error)}`);
    }
  }

  async function submit() {
    setBusy(true);
    setProblem(null);
    try {
      const { item, warnings } = editing
        ? await call('outboxEdit', { id: editing.id, input })
        : await call('outboxEnqueue', { kind: 'create-campaign', input });
      outboxChanged();
      setDraft({});
      setJsonText(null);
      setCompletionText('');
      setTemplate('');
      setTemplateNote(null);
      onDone(item.change, warnings);
    } catch (error) {
      setProblem({ field: error instanceof AttestError ? error.field : undefined, message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  const ownerError = owners.map((_, i) => errorAt(`ownerIds[${i}]`)).find(Boolean) ?? errorAt('ownerIds');
  const fieldKeys = ['displayName', 'description', 'ownerIds', 'policyId', 'templateId', 'duplicateFrom', 'completionDate'];
  const elsewhere = refusal && !fieldKeys.some((k) => refusal.field === k || refusal.field?.startsWith(`${k}[`));

  return (
    <form
      className="stack"
      data-testid="campaign-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready && !busy) void submit();
      }}
    >
      <div>
        <label className="label" htmlFor="campaign-name">
          Name *
        </label>
        <input
          id="campaign-name"
          className="field"
          value={textOf(draft.displayName)}
          onChange={(e) => update({ displayName: e.target.value })}
          aria-invalid={Boolean(errorAt('displayName'))}
        />
        {errorAt('displayName') && <div className="field-error">{errorAt('displayName')}</div>}
      </div>
      <div>
        <label className="label" htmlFor="campaign-description">
          Description
        </label>
        <textarea
          id="campaign-description"
          className="field"
          rows={2}
          value={textOf(draft.description)}
          onChange={(e) => update({ description: e.target.value })}
        />
      </div>
      <div className="stack" style={{ gap: 6 }}>
        <Picker
          id="campaign-owner"
          label="Owners *"
          value={owner}
          onChange={setOwner}
          onPick={addOwner}
          clearOnPick
          load={pickLoader('users')}
          loadKey="users"
          placeholder="Type a person's name, email or id"
          error={ownerError}
          hint="At least one: the people who own and manage the campaign."
        />
        {owners.length > 0 && (
          <ul className="picker-chips" aria-label="Owners chosen" data-testid="campaign-owners">
            {owners.map((id, i) => {
              const title = names[`ownerIds[${i}]`] ?? ownerTitles[id] ?? '';
              return (
                <li key={id} className="picker-chip" data-id={id}>
                  <span>{title || id}</span>
                  {title && <span className="muted small mono">{id}</span>}
                  <button
                    type="button"
                    className="btn small"
                    aria-label={`Remove owner ${title || id}`}
                    onClick={() => update({ ownerIds: owners.filter((o) => o !== id) })}
                  >
                    ×
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      <div className="grid cols-2">
        <Picker
          id="campaign-template"
          label="From template"
          value={template}
          onChange={(text) => {
            setTemplate(text);
            // Words typed over a picked template: none is chosen until one is picked again.
            if (text.trim() !== textOf(draft.templateId)) update({ templateId: undefined });
          }}
          onPick={(option) => void pickTemplate(option.id)}
          load={pickLoader('templates')}
          loadKey="templates"
          name={names.templateId}
          error={errorAt('templateId')}
          hint={templateNote ?? 'Optional: its policy, scope, notifications and length are copied into the campaign.'}
        />
        <Picker
          id="campaign-duplicate"
          label="Duplicate from campaign"
          value={textOf(draft.duplicateFrom)}
          onChange={(text) => update({ duplicateFrom: text })}
          load={pickLoader('campaigns')}
          loadKey="campaigns"
          name={names.duplicateFrom}
          error={errorAt('duplicateFrom')}
          hint="Optional: the tenant copies that campaign's scope and setup."
        />
      </div>
      <div className="grid cols-2">
        <Picker
          id="campaign-policy"
          label="Policy"
          value={textOf(draft.policyId)}
          onChange={(text) => update({ policyId: text })}
          load={pickLoader('policies')}
          loadKey="policies"
          name={names.policyId}
          error={errorAt('policyId')}
          hint="Optional: the review policy that assigns and resolves its tasks."
        />
        <div>
          <label className="label" htmlFor="campaign-completion">
            Completion date
          </label>
          <input
            id="campaign-completion"
            className="field"
            value={completionText}
            onChange={(e) => setCompletion(e.target.value)}
            placeholder="2026-12-31, or 21d from now"
            aria-invalid={completion === null || Boolean(errorAt('completionDate'))}
            aria-describedby="campaign-completion-hint"
          />
          <div
            id="campaign-completion-hint"
            className={completion === null || errorAt('completionDate') ? 'field-error' : 'muted small'}
            data-testid="campaign-completion-hint"
          >
            {completion === null
              ? "Not a date or a duration: give 2026-12-31, 2026-12-31T17:00:00Z, or a length from now such as '21d', '36h' or '1209600s'"
              : (errorAt('completionDate') ??
                (completion ? `Ends ${when(completion)}` : 'Optional: a date, or a length from now (21d, 36h)'))}
          </div>
        </div>
      </div>
      <fieldset className="stack" style={{ border: 'none', padding: 0, margin: 0 }}>
        <legend className="label">Notifications</legend>
        <div className="row wrap">
          {NOTIFICATIONS.map(([key, label]) => (
            <label key={key} className="row small">
              <input
                type="checkbox"
                checked={notifications[key] === true}
                onChange={(e) => update({ notificationConfig: { ...notifications, [key]: e.target.checked } })}
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      {isObject(draft.scopeV2) && (
        <div className="muted small" data-testid="campaign-scope">
          Scope: {Object.keys(draft.scopeV2).join(', ') || 'empty'} (edit it in the JSON below).
        </div>
      )}
      <details>
        <summary>Advanced (JSON)</summary>
        <label className="label" htmlFor="change-json">
          Input (JSON)
        </label>
        <textarea
          id="change-json"
          className="field mono"
          rows={12}
          value={jsonText ?? JSON.stringify(input, null, 2)}
          onChange={(e) => editJson(e.target.value)}
          spellCheck={false}
          aria-invalid={Boolean(jsonProblem)}
        />
        {jsonProblem ? (
          <div className="field-error" data-testid="json-problem">
            {jsonProblem}
          </div>
        ) : (
          <div className="muted small">The same input as the form, as `attest queue add create-campaign --file` takes it.</div>
        )}
      </details>
      {elsewhere && (
        <div className="field-error" role="alert">
          {refusal.message}
        </div>
      )}
      {live.preview?.warnings.map((w, i) => (
        <div key={i} className="badge warn" data-testid="check-warning" style={{ alignSelf: 'flex-start' }}>
          {w.message}
        </div>
      ))}
      <div>
        <button type="submit" className="btn primary" disabled={!ready || busy}>
          {busy ? 'Saving…' : editing ? 'Save changes' : 'Queue change'}
        </button>
      </div>
    </form>
  );
}
