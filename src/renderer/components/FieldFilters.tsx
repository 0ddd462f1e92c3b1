import { useMemo, useState } from 'react';
import type { CollectionInfo, ColumnInfo } from '../../shared/contract';
import { call } from '../api';
import { count, enumCellText } from './format';
import { useDebounced, useQuery } from './useQuery';

/** Column filters: one value per filterable column (the same filters as the CLI's `--filter COLUMN=VALUE`). */
export type FieldFilterValues = Record<string, string[]>;

/** A filter with more choices than this is searchable: a box to type in narrows its list. */
const SEARCHABLE_FROM = 12;

/** A value of a filter and how the select shows it. */
interface Choice {
  choice: string;
  label: string;
}

/** A choice as the select shows it: enum values by their labels, booleans as Yes/No, ids of synced objects by name. */
function choiceLabel(info: CollectionInfo, column: ColumnInfo, choice: string): string {
  if (column.kind === 'enum') return enumCellText(column.enumName, choice).label;
  if (column.kind === 'bool') return choice === 'true' ? 'Yes' : 'No';
  return info.filterLabels[column.key]?.[choice] ?? choice;
}

/** "1 match", "12 matches". */
const matches = (n: number): string => `${count(n)} match${n === 1 ? '' : 'es'}`;

/**
 * One column's filter: a select of the values its stored objects hold. Many values: a box to type
 * in narrows the list (by label and raw value). When the list holds only the most frequent values,
 * what is typed is looked up in the whole store, so a rare value is found too; the note says how
 * many are listed of how many, so no value is left out without a word.
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
  // The label of a value chosen from the store's matches, kept once the box is cleared.
  const [chosen, setChosen] = useState<Choice | null>(null);
  const choices = info.filterValues[column.key] ?? [];
  const total = info.filterTotals?.[column.key] ?? choices.length;
  const capped = total > choices.length;
  const searchable = choices.length >= SEARCHABLE_FROM || capped;
  const labelled = useMemo(() => choices.map((choice) => ({ choice, label: choiceLabel(info, column, choice) })), [info, column, choices]);
  const needle = typed.trim().toLowerCase();
  const asked = useDebounced(capped ? typed.trim() : '', 150);
  // useQuery ignores an answer older than the latest call; the core skips calls a newer one replaced.
  const found = useQuery(
    () =>
      asked
        ? call('filterChoices', { collection: info.id, column: column.key, text: asked, latest: `filter-${info.id}-${column.key}` }).then(
            (answer) => ({
              text: asked,
              total: answer.total,
              choices: answer.choices.map((c): Choice => ({ choice: c.value, label: c.name ?? choiceLabel(info, column, c.value) })),
            }),
          )
        : Promise.resolve(null),
    [asked, info, column.key],
  );
  const answered = capped && needle && found.data?.text === typed.trim() ? found.data : null;
  const local = needle
    ? labelled.filter((c) => c.label.toLowerCase().includes(needle) || c.choice.toLowerCase().includes(needle))
    : labelled;
  const matching = answered ? answered.choices : local;
  // The chosen value stays listed while the box narrows the others away.
  const selectedChoice =
    labelled.find((c) => c.choice === selected) ??
    (chosen?.choice === selected ? chosen : { choice: selected, label: choiceLabel(info, column, selected) });
  const listed = selected && !matching.some((c) => c.choice === selected) ? [selectedChoice, ...matching] : matching;
  const note = !needle
    ? capped
      ? `${count(choices.length)} of ${count(total)} shown (the most frequent): type to narrow`
      : null
    : !capped
      ? matches(local.length)
      : answered
        ? answered.total > answered.choices.length
          ? `${count(answered.choices.length)} of ${matches(answered.total)}: type more`
          : matches(answered.total)
        : found.error && !found.loading
          ? `Could not look up the values: ${found.error}`
          : `Looking up all ${count(total)} values…`;
  const select = (
    <select
      className="field"
      style={layout === 'row' ? { width: 'auto', maxWidth: 'min(220px, 100%)' } : undefined}
      aria-label={`Filter by ${column.label}`}
      value={selected}
      onChange={(event) => {
        const value = event.target.value;
        setChosen(listed.find((c) => c.choice === value) ?? null);
        onSelect(value);
      }}
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
