/**
 * A picker for an id: a text box (a combobox, as WAI-ARIA describes it) that offers, as you type,
 * the objects of the store whose names or ids match, by name with the id beside; the id is what it
 * holds. It always says how many match and how many it shows ("20 of 1,445 shown; type to
 * narrow"), never cutting the list short without a word. An id may still be typed or pasted.
 */
import { FieldNote } from './FieldNote';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useDebounced } from './useQuery';
import './picker.css';

export interface PickOption {
  id: string;
  title: string;
  /** A second line: an email, what a resource server holds. */
  detail?: string;
}

export interface PickPage {
  options: PickOption[];
  total: number;
}

/** Reads the options matching typed text (the whole store is searched; a window of it comes back). */
export type PickLoader = (text: string) => Promise<PickPage>;

const number = (n: number) => n.toLocaleString('en-US');

/** How many match, and how many of them are shown. */
export function countText(shown: number, total: number): string {
  if (total === 0) return 'No match in the store';
  if (shown < total) return `${number(shown)} of ${number(total)} shown; type to narrow`;
  return total === 1 ? '1 match' : `${number(total)} matches`;
}

/** The options for `text` from `load`, read again when `loadKey` (what the loader depends on) changes. */
export function usePickPage(load: PickLoader | undefined, loadKey: string, text: string): PickPage | null {
  const typed = useDebounced(text.trim(), 150);
  const [page, setPage] = useState<PickPage | null>(null);
  const loader = useRef(load);
  loader.current = load;
  useEffect(() => {
    if (!loader.current) return;
    let live = true;
    loader.current(typed).then(
      (found) => live && setPage(found),
      () => live && setPage({ options: [], total: 0 }),
    );
    return () => {
      live = false;
    };
  }, [typed, loadKey]);
  return page;
}

export interface PickerProps {
  id: string;
  label: string;
  value: string;
  onChange(text: string): void;
  /** An option chosen (after onChange with its id, unless `clearOnPick`). */
  onPick?(option: PickOption): void;
  load: PickLoader;
  /** What the loader depends on besides the text (the app chosen so far). */
  loadKey?: string;
  required?: boolean;
  mono?: boolean;
  /** The name the store has for the id held (from the form's check), shown beside it. */
  name?: string;
  error?: string | null;
  hint?: ReactNode;
  placeholder?: string;
  /** A multiple choice: picking hands the option over and empties the box for the next one. */
  clearOnPick?: boolean;
  disabled?: boolean;
}

export function Picker({
  id,
  label,
  value,
  onChange,
  onPick,
  load,
  loadKey = '',
  required,
  mono,
  name,
  error,
  hint,
  placeholder = 'Type a name or an id',
  clearOnPick,
  disabled,
}: PickerProps) {
  const page = usePickPage(load, loadKey, value);
  const [open, setOpen] = useState(false);
  // The option the arrow keys are on, by id: it stays on it when fresh matches arrive.
  const [activeId, setActiveId] = useState<string | null>(null);
  // The arrow keys open the list even on an id held whole (to change it).
  const [browsing, setBrowsing] = useState(false);
  const [picked, setPicked] = useState<PickOption | null>(null);
  const options = page?.options ?? [];
  const listId = `${id}-options`;
  const countId = `${id}-count`;
  // The name of the id held: from the check, else from the option picked or offered.
  const held = value.trim();
  const exact = options.find((o) => o.id === held);
  const shown = name || (picked && picked.id === held ? picked.title : '') || exact?.title;
  // A box that holds an offered id whole needs no list: typing again opens it.
  const expanded = open && (browsing || !exact || Boolean(clearOnPick));

  const active = activeId === null ? -1 : options.findIndex((o) => o.id === activeId);

  function pick(option: PickOption) {
    setOpen(false);
    setBrowsing(false);
    setActiveId(null);
    if (clearOnPick) onChange('');
    else {
      setPicked(option);
      onChange(option.id);
    }
    onPick?.(option);
  }

  return (
    <div className="picker">
      <label className="label" htmlFor={id}>
        {label}
        {required ? ' *' : ''}
      </label>
      <div className="row">
        <div className="picker-box grow">
          <input
            id={id}
            className={`field ${mono ? 'mono' : ''}`}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={listId}
            aria-activedescendant={expanded && active >= 0 ? `${id}-option-${active}` : undefined}
            aria-describedby={expanded ? countId : undefined}
            aria-invalid={Boolean(error)}
            value={value}
            placeholder={placeholder}
            spellCheck={false}
            autoComplete="off"
            disabled={disabled}
            onFocus={() => setOpen(true)}
            onBlur={() => {
              setOpen(false);
              setBrowsing(false);
            }}
            onChange={(e) => {
              onChange(e.target.value);
              setOpen(true);
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
                e.preventDefault();
                setOpen(true);
                setBrowsing(true);
                const step = e.key === 'ArrowDown' ? 1 : -1;
                const next = options[Math.max(0, Math.min(options.length - 1, active + step))];
                if (next) setActiveId(next.id);
              } else if (e.key === 'Enter' && expanded && active >= 0 && options[active]) {
                // Enter picks the option shown as active; it does not submit the form.
                e.preventDefault();
                pick(options[active]);
              } else if (e.key === 'Escape' && expanded) {
                // Closes the list only, not a dialog the picker is in.
                e.preventDefault();
                e.stopPropagation();
                setOpen(false);
                setBrowsing(false);
              }
            }}
          />
          <div
            className="picker-popup"
            hidden={!expanded}
            data-testid={`${id}-popup`}
            // Scrolling the list with the mouse keeps the focus in the box (and the list open).
            onMouseDown={(e) => e.preventDefault()}
          >
            <ul id={listId} role="listbox" aria-label="Matches in the store" className="picker-list">
              {options.map((option, i) => (
                <li
                  key={option.id}
                  id={`${id}-option-${i}`}
                  role="option"
                  aria-selected={i === active}
                  data-id={option.id}
                  className="picker-option"
                  onClick={() => pick(option)}
                >
                  <span>{option.title || option.id}</span>
                  {option.detail && <span className="muted small">{option.detail}</span>}
                  <span className="muted small mono">{option.id}</span>
                </li>
              ))}
            </ul>
            <div id={countId} className="muted small picker-count" data-testid={countId}>
              {page ? countText(options.length, page.total) : 'Searching the store…'}
            </div>
          </div>
        </div>
        {shown && !clearOnPick && (
          <span className="small" data-testid={`name-${id}`}>
            {shown}
          </span>
        )}
      </div>
      <FieldNote id={id} error={error} hint={hint} />
    </div>
  );
}
