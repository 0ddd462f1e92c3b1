import { useMemo, useState } from 'react';
import type { CollectionInfo, ColumnInfo } from '../../shared/contract';
import { count, enumCellText } from './format';

/** Column filters: one value per filterable column (the same filters as the CLI's `--filter COLUMN=VALUE`). */
export type FieldFilterValues = Record<string, string[]>;

/** A filter with more choices than this is searchable: a box to type in narrows its list. */
const SEARCHABLE_FROM = 12;

/** A choice as the select shows it: enum values by their labels, booleans as Yes/No, ids of synced objects by name. */
function choiceLabel(info: CollectionInfo, column: ColumnInfo, choice: string): string {
  if (column.kind === 'enum') return enumCellText(column.enumName, choice).label;
  if (column.kind === 'bool') return choice === 'true' ? 'Yes' : 'No';
  return info.filterLabels[column.key]?.[choice] ?? choice;
}

/**
 * One column's filter: a select of the values its stored objects hold. Many values: a box to type
 * in narrows the list (by label and raw value), and the note says how many are listed of how many,
 * so no value is left out without a word.
 */
function ColumnFilter({
  info,
  column,
  selected,
  layout,
  onSelect,
}: {
  info: CollectionInfo;
  column: ColumnInfo;
  selected: string;
  layout: 'row' | 'column';
  onSelect(value: string): void;
}) {
  const [typed, setTyped] = useState('');
  const choices = info.filterValues[column.key] ?? [];
  const total = info.filterTotals?.[column.key] ?? choices.length;
  const searchable = choices.length >= SEARCHABLE_FROM || total > choices.length;
  const labelled = useMemo(() => choices.map((choice) => ({ choice, label: choiceLabel(info, column, choice) })), [info, column, choices]);
  const needle = typed.trim().toLowerCase();
  const matching = needle
    ? labelled.filter((c) => c.label.toLowerCase().includes(needle) || c.choice.toLowerCase().includes(needle))
    : labelled;
  // The chosen value stays listed while the box narrows the others away.
  const listed =
    selected && !matching.some((c) => c.choice === selected) ? [...labelled.filter((c) => c.choice === selected), ...matching] : matching;
  const note = needle
    ? `${count(matching.length)} of ${count(total)} match${total > choices.length ? ` (among the ${count(choices.length)} most frequent)` : ''}`
    : total > choices.length
      ? `${count(choices.length)} of ${count(total)} shown (the most frequent): type to narrow`
      : null;
  const select = (
    <select
      className="field"
      style={layout === 'row' ? { width: 'auto', maxWidth: 'min(220px, 100%)' } : undefined}
      aria-label={`Filter by ${column.label}`}
      value={selected}
      onChange={(event) => onSelect(event.target.value)}
    >
      <option value="">{layout === 'row' ? `${column.label}: all` : 'All'}</option>
      {listed.map(({ choice, label }) => (
        // An id of a synced object (an app, a template) is offered by its name, the id on hover.
        <option key={choice} value={choice} title={label !== choice ? choice : undefined}>
          {label}
        </option>
      ))}
    </select>
  );
  if (!searchable) return select;
  return (
    // Shrinks and wraps with the filter row: a narrow (or zoomed) window puts the select under the box.
    <span className="stack" style={{ gap: 2, minWidth: 0, maxWidth: '100%' }} data-testid={`filter-${column.key}`}>
      <span className="row wrap" style={{ gap: 4, minWidth: 0, maxWidth: '100%' }}>
        <input
          type="search"
          className="field"
          style={{ width: 130, maxWidth: '100%' }}
          placeholder={`Find ${column.label.toLowerCase()}…`}
          aria-label={`Find a ${column.label} to filter by`}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        {select}
      </span>
      {note && (
        <span className="muted small" role="status" data-testid={`filter-${column.key}-note`}>
          {note}
        </span>
      )}
    </span>
  );
}

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
        const filter = (
          <ColumnFilter
            key={column.key}
            info={info}
            column={column}
            layout={layout}
            selected={filters[column.key]?.[0] ?? ''}
            onSelect={(value) => onChange({ ...filters, [column.key]: value ? [value] : [] })}
          />
        );
        return layout === 'row' ? (
          filter
        ) : (
          <div key={column.key} className="stack" style={{ gap: 2 }}>
            <span className="muted small" aria-hidden="true">
              {column.label}
            </span>
            {filter}
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
