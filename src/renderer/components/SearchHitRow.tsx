import type { SearchHit } from '../../shared/contract';
import { COLLECTION_NOUN } from './collections';
import { Highlight } from './Highlight';

/** One search hit (in Search and in the Ctrl/Cmd+K palette): its collection, its name, the matching text. */
export function SearchHitRow({
  hit,
  selected,
  onOpen,
  onHover,
  testId,
}: {
  hit: SearchHit;
  selected?: boolean;
  onOpen(): void;
  onHover?(): void;
  testId?: string;
}) {
  return (
    <button className={`hit ${selected ? 'selected' : ''}`} onMouseEnter={onHover} onClick={onOpen} data-testid={testId}>
      <span className="badge">{COLLECTION_NOUN[hit.collection]}</span>
      <span className="grow" style={{ minWidth: 0 }}>
        <div>{hit.title || hit.id}</div>
        <div className="snippet">
          <Highlight text={hit.snippet} />
        </div>
      </span>
    </button>
  );
}
