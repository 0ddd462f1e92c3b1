import type { ColumnInfo } from '../../shared/contract';
import { dateTime, enumCellText } from './format';

/**
 * One table cell, rendered by its column kind, its full value on hover (title). Unknown enum values
 * are flagged. An id cell whose object the store holds shows its name (`name`), the id after it.
 */
export function Cell({
  column,
  value,
  name,
}: {
  column: ColumnInfo;
  value: string | number | boolean | null | undefined;
  name?: string | undefined;
}) {
  if (value === null || value === undefined || value === '') return <span className="muted">—</span>;
  if (name)
    return (
      <span title={String(value)}>
        {name} <span className="muted mono">({String(value)})</span>
      </span>
    );
  switch (column.kind) {
    case 'enum': {
      const text = enumCellText(column.enumName, String(value));
      return (
        <span className={`badge ${text.known ? '' : 'unknown'}`} title={text.title}>
          {text.label}
        </span>
      );
    }
    case 'date':
      return <span title={String(value)}>{dateTime(String(value))}</span>;
    case 'bool':
      return <span>{value === true || value === 1 || value === 'true' ? 'Yes' : 'No'}</span>;
    case 'number':
      return <span>{typeof value === 'number' ? value.toLocaleString('en-US') : String(value)}</span>;
    case 'id':
      return (
        <span className="mono" title={String(value)}>
          {String(value)}
        </span>
      );
    default:
      return <span title={String(value)}>{String(value)}</span>;
  }
}
