import { createContext, useContext, useState, type CSSProperties, type ReactNode } from 'react';
import { dateTime, enumText, humanizeKey } from '../../components/format';
import { ENUM_CONSTANT } from '../../../shared/enum-words';
import { MarkdownText } from '../../components/MarkdownText';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
export const obj = (value: unknown): JsonObject => (isObject(value) ? value : {});
export const arr = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
export const str = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);

/** The height of a row of the pages' virtualized lists (an app's objects, an entitlement's members). */
export const VIRTUAL_ROW_HEIGHT = 36;

/** The style of a row of those lists, placed `start` pixels from the top of its list. */
export const virtualRowStyle = (start: number): CSSProperties => ({
  position: 'absolute',
  top: 0,
  left: 0,
  right: 0,
  height: VIRTUAL_ROW_HEIGHT,
  transform: `translateY(${start}px)`,
  borderBottom: '1px solid var(--border)',
  padding: '0 8px',
});

const isCelKey = (key: string) => /Cel$/.test(key) || key === 'condition' || key === 'expression' || key === 'cronSpec';
/** Fields the tenant writes in Markdown: descriptions, review instructions, campaign insights. */
const isMarkdownKey = (key: string) => key === 'description' || key === 'reviewInstructions' || key === 'markdown';
const isTimeKey = (key: string) => /At$|Date$|^start$|Time$/.test(key);

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      className="btn small"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1200);
          },
          () => setCopied(false),
        );
      }}
      title={`Copy ${text}`}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

export function CopyableId({ value }: { value: string }) {
  if (!value) return <span className="muted">—</span>;
  return (
    <span className="row" style={{ display: 'inline-flex' }}>
      <code>{value}</code>
      <CopyButton text={value} />
    </span>
  );
}

export function Cel({ code }: { code: string }) {
  return <code className="cel">{code}</code>;
}

/** The names of the synced objects the shown object names by id (nested members too), by id. */
export const IdNames = createContext<Record<string, string>>({});

/** An id of a synced object: its name, the id after it (copyable). */
function NamedId({ name, id }: { name: string; id: string }) {
  return (
    <span className="row" style={{ display: 'inline-flex' }} data-testid="named-id" title={id}>
      <span>{name}</span>
      <code className="muted">{id}</code>
      <CopyButton text={id} />
    </span>
  );
}

/** An enum value (a list's too) in words, as every front writes it; one no enumeration lists as written and marked. */
function EnumBadge({ value }: { value: string }) {
  const text = enumText(null, value);
  return (
    <span className={`badge ${text.known ? '' : 'unknown'}`} title={text.title}>
      {text.label}
    </span>
  );
}

/** One scalar shown by what its key says it is: CEL, a time, an enum, an id, a flag. */
export function Scalar({ name, value }: { name: string; value: Json }) {
  const names = useContext(IdNames);
  if (value === null || value === '' || value === undefined) return <span className="muted">—</span>;
  if (typeof value === 'boolean') return <span>{value ? 'Yes' : 'No'}</span>;
  if (typeof value === 'number') return <span>{value.toLocaleString('en-US')}</span>;
  if (typeof value === 'string') {
    if (isCelKey(name)) return <Cel code={value} />;
    if (isMarkdownKey(name)) return <MarkdownText text={value} />;
    if (isTimeKey(name)) return <span title={value}>{dateTime(value)}</span>;
    if (ENUM_CONSTANT.test(value)) return <EnumBadge value={value} />;
    if (names[value]) return <NamedId name={names[value]} id={value} />;
    if (/(^id$|Id$)/.test(name)) return <CopyableId value={value} />;
    return <span>{value}</span>;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">none</span>;
    if (value.every((v) => typeof v !== 'object' || v === null))
      return (
        <span className="row wrap">
          {value.map((v, i) =>
            typeof v === 'string' && names[v] ? (
              <NamedId key={i} name={names[v]} id={v} />
            ) : typeof v === 'string' && ENUM_CONSTANT.test(v) ? (
              <EnumBadge key={i} value={v} />
            ) : (
              <span key={i} className="badge">
                {String(v)}
              </span>
            ),
          )}
        </span>
      );
    return <Tree value={value} />;
  }
  if (Object.keys(value).length === 0) return <span className="badge">set</span>;
  return <Tree value={value} />;
}

/** A key/value grid of an object, nested objects indented; CEL highlighted; empty selector markers shown as "set". */
export function Fields({ value, skip = [] }: { value: JsonObject; skip?: string[] }) {
  const entries = Object.entries(value).filter(([key]) => !skip.includes(key));
  if (entries.length === 0) return <span className="muted">No fields.</span>;
  return (
    <dl className="kv">
      {entries.map(([key, item]) => (
        <FieldRow key={key} name={key} value={item} />
      ))}
    </dl>
  );
}

function FieldRow({ name, value }: { name: string; value: Json }) {
  return (
    <>
      <dt title={name}>{humanizeKey(name)}</dt>
      <dd>
        <Scalar name={name} value={value} />
      </dd>
    </>
  );
}

export function Tree({ value }: { value: Json }) {
  if (Array.isArray(value))
    return (
      <div className="stack" style={{ gap: 6 }}>
        {value.map((item, index) => (
          <div key={index} style={{ borderLeft: '2px solid var(--border)', paddingLeft: 8 }}>
            {isObject(item) ? <Fields value={item} /> : <Scalar name="" value={item} />}
          </div>
        ))}
      </div>
    );
  if (isObject(value))
    return (
      <div style={{ borderLeft: '2px solid var(--border)', paddingLeft: 8 }}>
        <Fields value={value} />
      </div>
    );
  return <Scalar name="" value={value} />;
}

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card stack" style={{ gap: 10 }}>
      <div className="row">
        <h2 className="grow section-title" style={{ margin: 0 }}>
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** The member of a one-of object that is set, e.g. a routing rule's action or a step's action. */
export function oneOf(value: JsonObject, members: readonly string[]): [string, JsonObject] | null {
  for (const member of members) if (member in value) return [member, obj(value[member])];
  return null;
}
