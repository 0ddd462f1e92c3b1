import { Fragment } from 'react';
import type { ColumnInfo, ObjectDetail } from '../../../shared/contract';
import { Section } from './parts';

/**
 * The people, policies and other objects this object names by id (its creator, its policy, its
 * app...), by name as the store holds them, each id after its name.
 */
export function NamedReferences({ object, columns }: { object: ObjectDetail; columns: ColumnInfo[] }) {
  const names = object.names ?? {};
  const shown = columns.filter((c) => names[c.key] !== undefined && object.cells[c.key] !== null && object.cells[c.key] !== '');
  if (shown.length === 0) return null;
  return (
    <Section title="Named here">
      <dl className="kv" data-testid="named-references">
        {shown.map((c) => (
          <Fragment key={c.key}>
            <dt>{c.label}</dt>
            <dd title={String(object.cells[c.key])}>
              {names[c.key]} <span className="muted mono">({String(object.cells[c.key])})</span>
            </dd>
          </Fragment>
        ))}
      </dl>
    </Section>
  );
}
