import { useEffect, useMemo, useState } from 'react';
import type { ChangePreview, OutboxItemView } from '../../../shared/contract';
import { TEMPLATE_UPDATABLE_FIELDS, type TemplateUpdatableField } from '../../../shared/template-fields';
import { AttestError, call, errorMessage } from '../../api';
import { ErrorState, Loading } from '../../components/States';
import { useQuery } from '../../components/useQuery';
import { Picker } from '../../components/Picker';
import { pickLoader } from './pickers';
import { useApp } from '../../stores/app';

type FieldKind = (typeof TEMPLATE_UPDATABLE_FIELDS)[TemplateUpdatableField];
const FIELDS = Object.entries(TEMPLATE_UPDATABLE_FIELDS) as [TemplateUpdatableField, FieldKind][];
const KIND_OF = new Map<string, FieldKind>(FIELDS);

/** `reviewInstructions` -> "Review instructions". */
const labelOf = (key: string) =>
  key
    .replace(/([A-Z])/g, ' $1')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/ ([A-Z])/g, (_, c: string) => ` ${c.toLowerCase()}`);

/** A value as its input shows it: text, 'true'/'false', or indented JSON; '' when not set. */
function shown(value: unknown, kind: FieldKind): string {
  if (value === undefined || value === null) return '';
  if (kind === 'text') return typeof value === 'string' ? value : JSON.stringify(value);
  if (kind === 'bool') return value === true ? 'true' : value === false ? 'false' : '';
  return JSON.stringify(value, null, 2);
}

/**
 * The draft's fields that differ from the synced template, as values to send (a field emptied is
 * null: cleared), and the fields whose JSON does not parse. The core derives the mask from these.
 */
function changesOf(
  original: Record<string, unknown>,
  draft: Record<string, string>,
): { changes: Record<string, unknown>; bad: Record<string, string> } {
  const changes: Record<string, unknown> = {};
  const bad: Record<string, string> = {};
  for (const [key, kind] of FIELDS) {
    const text = draft[key];
    if (text === undefined || text === shown(original[key], kind)) continue;
    if (kind === 'text') changes[key] = text === '' && original[key] === undefined ? null : text;
    else if (kind === 'bool') changes[key] = text === '' ? null : text === 'true';
    else if (text.trim() === '') changes[key] = null;
    else {
      try {
        changes[key] = JSON.parse(text) as unknown;
      } catch (error) {
        bad[key] = `not valid JSON: ${(error as Error).message}`;
      }
    }
  }
  return { changes, bad };
}

/** The value at a dotted mask path (`recurrenceRule.endDate`) of what an update sets. */
function valueAt(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((cur, key) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined), value);
}

const brief = (value: unknown) =>
  value === undefined || value === null ? '(not set)' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * Update-template as an editor of the synced template: pick one from the local store, change its
 * fields, and see the updateMask the core derives (only what really differs) with each field's
 * before and after, checked as you type; then queue it, or save an edit of a queued update.
 */
export function TemplateEditor({
  editing,
  templateId: initial,
  onDone,
}: {
  editing?: OutboxItemView;
  templateId?: string;
  onDone(summary: string): void;
}) {
  const outboxChanged = useApp((s) => s.outboxChanged);
  const [templateId, setTemplateId] = useState(editing ? String(editing.input.templateId ?? '') : (initial ?? ''));
  // What the picker holds: the template's id once one is picked, or words to find one by.
  const [typed, setTyped] = useState(templateId);
  const detail = useQuery(
    () => (templateId ? call('getObject', { collection: 'templates', id: templateId }) : Promise.resolve({ object: null })),
    [templateId],
  );
  const original = useMemo(
    () => (detail.data?.object ? (JSON.parse(detail.data.object.raw) as Record<string, unknown>) : null),
    [detail.data],
  );
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<ChangePreview | null>(null);
  const [problem, setProblem] = useState<{ field?: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  // A new template starts from its synced values; an edited item from the values it would set.
  useEffect(() => {
    const queued =
      editing && editing.input.templateId === templateId ? (editing.input.changes as Record<string, unknown> | undefined) : undefined;
    setDraft(
      Object.fromEntries(Object.entries(queued ?? {}).flatMap(([k, v]) => (KIND_OF.has(k) ? [[k, shown(v, KIND_OF.get(k)!)]] : []))),
    );
  }, [original, editing, templateId]);

  const { changes, bad } = useMemo(() => (original ? changesOf(original, draft) : { changes: {}, bad: {} }), [original, draft]);
  const changed = Object.keys(changes);

  // Checked by the core as you type (after a short pause): the same rules and mask as queuing.
  useEffect(() => {
    setPreview(null);
    setProblem(null);
    if (!original || Object.keys(bad).length > 0 || Object.keys(changes).length === 0) return;
    let live = true;
    const timer = setTimeout(() => {
      call('outboxCheck', { kind: 'update-template', input: { templateId, changes }, editing: editing?.id ?? null }).then(
        (p) => live && setPreview(p),
        (e: unknown) => live && setProblem({ field: e instanceof AttestError ? e.field : undefined, message: errorMessage(e) }),
      );
    }, 120);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [original, changes, bad, templateId, editing?.id]);

  async function queue() {
    setBusy(true);
    try {
      const input = { templateId, changes };
      const { item } = editing
        ? await call('outboxEdit', { id: editing.id, input })
        : await call('outboxEnqueue', { kind: 'update-template', input });
      outboxChanged();
      setDraft({});
      onDone(item.change);
    } catch (error) {
      setProblem({ field: error instanceof AttestError ? error.field : undefined, message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  const fieldProblem = (key: string) =>
    bad[key] ?? (problem?.field && (problem.field === key || problem.field.startsWith(`${key}.`)) ? problem.message : null);

  return (
    <div className="stack" data-testid="template-editor">
      <div>
        <Picker
          id="template-id"
          label="Template"
          required
          value={typed}
          disabled={Boolean(editing)}
          onChange={(text) => {
            setTyped(text);
            if (text.trim() !== templateId) setTemplateId('');
          }}
          onPick={(option) => setTemplateId(option.id)}
          name={templateId ? detail.data?.object?.title : undefined}
          load={pickLoader('templates')}
          loadKey="templates"
          hint="Any template of the local store, by name or id (those campaigns and automations name, and those added by id)."
        />
      </div>
      {templateId && detail.error && <ErrorState message={detail.error} onRetry={detail.reload} />}
      {templateId && !detail.error && !detail.data && <Loading />}
      {templateId && detail.data && !original && (
        <div className="field-error">
          Template {templateId} is not in the local store: sync, or add it by id (&ldquo;Add a template by id&rdquo; on the Templates list).
        </div>
      )}
      {original && (
        <>
          <div
            className="card stack"
            style={{ gap: 6, position: 'sticky', top: 0, zIndex: 1 }}
            data-testid="template-preview"
            aria-live="polite"
          >
            {changed.length === 0 ? (
              <div className="muted small">No change yet: edit a field and the update mask appears here before anything is queued.</div>
            ) : preview ? (
              <>
                <div>
                  Update mask: <code data-testid="update-mask">{String(preview.input.updateMask)}</code>
                </div>
                <table className="small" style={{ borderCollapse: 'collapse' }}>
                  <tbody>
                    {String(preview.input.updateMask)
                      .split(',')
                      .map((path) => (
                        <tr key={path}>
                          <td className="mono" style={{ paddingRight: 12 }}>
                            {path}
                          </td>
                          <td className="muted" style={{ paddingRight: 12, textDecoration: 'line-through' }}>
                            {brief((preview.input.before as Record<string, unknown> | undefined)?.[path])}
                          </td>
                          <td>{brief(valueAt(preview.input.changes, path))}</td>
                        </tr>
                      ))}
                  </tbody>
                </table>
                <div className="muted small mono">
                  {preview.request.method} {preview.request.path}
                </div>
              </>
            ) : problem ? (
              <div className="field-error" role="alert">
                {problem.field ? `${problem.field}: ` : ''}
                {problem.message}
              </div>
            ) : Object.keys(bad).length > 0 ? (
              <div className="field-error">Fix the fields marked below.</div>
            ) : (
              <div className="muted small">Checking…</div>
            )}
            <div className="row">
              <button type="button" className="btn primary" disabled={!preview || busy} onClick={() => void queue()}>
                {busy ? 'Saving…' : editing ? 'Save changes' : 'Queue update'}
              </button>
            </div>
          </div>
          <div className="grid cols-2">
            {FIELDS.map(([key, kind]) => {
              const value = draft[key] ?? shown(original[key], kind);
              const set = (text: string) => setDraft((d) => ({ ...d, [key]: text }));
              const error = fieldProblem(key);
              const id = `template-${key}`;
              return (
                <div key={key} data-changed={key in changes || undefined}>
                  <label className="label" htmlFor={id}>
                    {labelOf(key)} {key in changes && <span className="badge pending">changed</span>}
                  </label>
                  {kind === 'bool' ? (
                    <select id={id} className="field" value={value} onChange={(e) => set(e.target.value)}>
                      <option value="">(not set)</option>
                      <option value="true">Yes</option>
                      <option value="false">No</option>
                    </select>
                  ) : kind === 'json' ? (
                    <textarea
                      id={id}
                      className="field mono"
                      rows={Math.min(8, Math.max(2, value.split('\n').length))}
                      value={value}
                      onChange={(e) => set(e.target.value)}
                      spellCheck={false}
                      aria-invalid={Boolean(error)}
                    />
                  ) : (
                    <input
                      id={id}
                      className="field"
                      value={value}
                      onChange={(e) => set(e.target.value)}
                      spellCheck={false}
                      autoComplete="off"
                      aria-invalid={Boolean(error)}
                    />
                  )}
                  {error && (
                    <div className="field-error" data-testid={`error-${id}`}>
                      {error}
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        </>
      )}
    </div>
  );
}
