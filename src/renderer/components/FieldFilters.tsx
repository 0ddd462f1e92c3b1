import type { CollectionInfo } from '../../shared/contract';
import { enumText } from './format';

/** Column filters: one value per filterable column (the same filters as the CLI's `--filter COLUMN=VALUE`). */
export type FieldFilterValues = Record<string, string[]>;

/**
 * A select per filterable column of a collection (its descriptor's enum and boolean columns), the
 * choices being the values its stored objects hold, enum values by their labels.
 */
export function FieldFilters({
  info,
  filters,
  onChange,
  layout = 'row',
}: {
  info: CollectionInfo;
  filters: FieldFilterValues;
  onChange(filters: FieldFilterValues): void;
  layout?: 'row' | 'column';
}) {
  const columns = info.columns.filter((c) => c.filterable && (info.filterValues[c.key]?.length ?? 0) > 0);
  if (columns.length === 0) return null;
  return (
    <div className={layout === 'row' ? 'row' : 'stack'} style={{ gap: 8 }} data-testid="field-filters">
      {columns.map((column) => {
        const select = (
          <select
            key={column.key}
            className="field"
            style={layout === 'row' ? { width: 'auto', maxWidth: 220 } : undefined}
            aria-label={`Filter by ${column.label}`}
            value={filters[column.key]?.[0] ?? ''}
            onChange={(event) => onChange({ ...filters, [column.key]: event.target.value ? [event.target.value] : [] })}
          >
            <option value="">{layout === 'row' ? `${column.label}: all` : 'All'}</option>
            {(info.filterValues[column.key] ?? []).map((choice) => (
              <option key={choice} value={choice}>
                {column.kind === 'enum'
                  ? enumText(column.enumName, choice).label
                  : column.kind === 'bool'
                    ? choice === 'true'
                      ? 'Yes'
                      : 'No'
                    : choice}
              </option>
            ))}
          </select>
        );
        return layout === 'row' ? (
          select
        ) : (
          <div key={column.key} className="stack" style={{ gap: 2 }}>
            <span className="muted small" aria-hidden="true">
              {column.label}
            </span>
            {select}
          </div>
        );
      })}
    </div>
  );
}

/** How many of the filters hold a value. */
export function activeFilterCount(filters: FieldFilterValues): number {
  return Object.values(filters).filter((v) => v.length > 0).length;
}
