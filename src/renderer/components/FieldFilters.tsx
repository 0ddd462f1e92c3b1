import type { CollectionInfo, ColumnInfo } from '../../shared/contract';
import { enumText } from './format';

/** Column filters: one value per filterable column (the same filters as the CLI's `--filter COLUMN=VALUE`). */
export type FieldFilterValues = Record<string, string[]>;

/**
 * A select per filterable column of a collection (its descriptor's enum, boolean and id columns), the
 * choices being the values its stored objects hold: enum values by their labels, ids of synced objects by name.
 */
export function FieldFilters({
  info,
  filters,
  onChange,
  layout = 'row',
  shown = info.columns,
}: {
  info: CollectionInfo;
  filters: FieldFilterValues;
  onChange(filters: FieldFilterValues): void;
  layout?: 'row' | 'column';
  /** The columns whose filters are offered (a list offers those of its visible columns); all by default. */
  shown?: ColumnInfo[];
}) {
  const columns = shown.filter((c) => c.filterable && (info.filterValues[c.key]?.length ?? 0) > 0);
  if (columns.length === 0) return null;
  return (
    <div className={layout === 'row' ? 'row wrap field-filters' : 'stack'} style={{ gap: 8 }} data-testid="field-filters">
      {columns.map((column) => {
        const select = (
          <select
            key={column.key}
            className="field"
            style={layout === 'row' ? { width: 'auto', maxWidth: 'min(220px, 100%)' } : undefined}
            aria-label={`Filter by ${column.label}`}
            value={filters[column.key]?.[0] ?? ''}
            onChange={(event) => onChange({ ...filters, [column.key]: event.target.value ? [event.target.value] : [] })}
          >
            <option value="">{layout === 'row' ? `${column.label}: all` : 'All'}</option>
            {(info.filterValues[column.key] ?? []).map((choice) => {
              // An id of a synced object (an app, a template) is offered by its name, the id on hover.
              const name = info.filterLabels[column.key]?.[choice];
              return (
                <option key={choice} value={choice} title={name ? choice : undefined}>
                  {column.kind === 'enum'
                    ? enumText(column.enumName, choice).label
                    : column.kind === 'bool'
                      ? choice === 'true'
                        ? 'Yes'
                        : 'No'
                      : (name ?? choice)}
                </option>
              );
            })}
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
