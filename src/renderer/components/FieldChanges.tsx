import type { FieldChange } from '../../shared/contract';
import './changes.css';
import { enumText } from './format';

/** A value's JSON text as people read it: a string as written (an enum by its label), anything else compact. */
function FieldValue({ text }: { text: string | null }) {
  if (text === null) return <span className="muted">(not set)</span>;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Cut because it was long: shown as it is.
    return <code className="value-code">{text}</code>;
  }
  if (value === null) return <span className="muted">null</span>;
  if (typeof value === 'string') {
    if (value === '') return <span className="muted">(empty)</span>;
    if (/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(value)) {
      const label = enumText(null, value);
      return (
        <span>
          {label.label} {label.known && <span className="muted mono small">{value}</span>}
        </span>
      );
    }
    return <span className="value-text">{value}</span>;
  }
  if (typeof value === 'boolean') return <span>{value ? 'Yes' : 'No'}</span>;
  if (typeof value === 'number') return <span>{value.toLocaleString('en-US')}</span>;
  return <code className="value-code">{text}</code>;
}

/** Each changed value of an object: the field, its old value and its new value. */
export function FieldChanges({ fields, fieldCount, caption }: { fields: FieldChange[]; fieldCount: number; caption: string }) {
  if (fields.length === 0) return null;
  return (
    <table className="field-changes" data-testid="field-changes">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Before</th>
          <th scope="col">After</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((change) => (
          <tr key={change.field} data-field={change.field}>
            <th scope="row" className="mono small">
              {change.field}
            </th>
            <td className="value-before" data-testid="value-before">
              <FieldValue text={change.before} />
            </td>
            <td className="value-after" data-testid="value-after">
              <FieldValue text={change.after} />
            </td>
          </tr>
        ))}
        {fieldCount > fields.length && (
          <tr>
            <td colSpan={3} className="muted small">
              and {fieldCount - fields.length} more changed {fieldCount - fields.length === 1 ? 'value' : 'values'} (see Raw JSON)
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
