import type { MutationKind, OutboxBatchView } from '../../../shared/contract';
import { dateTime } from '../../components/format';
import { KIND_LABELS } from './ChangeForms';

/** A labelled select whose first choice, "Any", is no filter (the value null). */
export function AnySelect({
  id,
  label,
  value,
  choices,
  onChange,
  maxWidth,
}: {
  id: string;
  label: string;
  value: string | number | null;
  choices: { value: string | number; label: string }[];
  onChange(value: string | null): void;
  maxWidth?: number;
}) {
  return (
    <>
      <label className="small" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="field"
        style={{ width: 'auto', maxWidth }}
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">Any</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </>
  );
}

/** The change kinds as filter choices, by their labels. */
export const KIND_CHOICES = (Object.keys(KIND_LABELS) as MutationKind[]).map((k) => ({ value: k, label: KIND_LABELS[k] }));

/** The CSV imports as filter choices: the file's name and when it was imported. */
export const batchChoices = (batches: OutboxBatchView[]) =>
  batches.map((b) => ({ value: b.id, label: `${b.name} (${dateTime(b.createdAt)})` }));
