/**
 * The outbox journal: one appended row per attempt and per decision (send, interrupted by a crash,
 * reconcile, retry, discard, resolve). The table refuses updates and deletes; it is the change-log
 * evidence the reports cite.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { JournalEntry, JournalFilter, MutationKind } from './types';

export interface JournalAppend {
  itemId: string;
  kind: MutationKind;
  target: string;
  attempt: number;
  event: string;
  requestDigest?: string | null;
  method?: string | null;
  path?: string | null;
  httpStatus?: number | null;
  outcome: string;
  answer?: unknown;
  at?: string;
}

const MAX_ANSWER = 16_384;

/** The answer as stored: JSON text (or the text itself), bounded. */
export function answerText(answer: unknown): string | null {
  if (answer === undefined || answer === null) return null;
  const textValue = typeof answer === 'string' ? answer : JSON.stringify(answer);
  return textValue.length > MAX_ANSWER ? `${textValue.slice(0, MAX_ANSWER)}…` : textValue;
}

interface JournalRow {
  seq: number;
  item_id: string;
  kind: string;
  target: string;
  attempt: number;
  event: string;
  request_digest: string | null;
  method: string | null;
  path: string | null;
  http_status: number | null;
  outcome: string;
  answer: string | null;
  at: string;
}

function toEntry(r: JournalRow): JournalEntry {
  return {
    seq: r.seq,
    itemId: r.item_id,
    kind: r.kind as MutationKind,
    target: r.target,
    attempt: r.attempt,
    event: r.event,
    requestDigest: r.request_digest,
    method: r.method,
    path: r.path,
    httpStatus: r.http_status,
    outcome: r.outcome,
    answer: r.answer,
    at: r.at,
  };
}

export class Journal {
  readonly #insert: Statement;

  constructor(private readonly db: Database) {
    this.#insert = db.prepare(
      `INSERT INTO outbox_journal (item_id, kind, target, attempt, event, request_digest, method, path, http_status, outcome, answer, at)
       VALUES (@itemId, @kind, @target, @attempt, @event, @requestDigest, @method, @path, @httpStatus, @outcome, @answer, @at)`,
    );
  }

  /** Appends one entry; call inside the transaction that changes the item's state. */
  append(e: JournalAppend): void {
    this.#insert.run({
      itemId: e.itemId,
      kind: e.kind,
      target: e.target,
      attempt: e.attempt,
      event: e.event,
      requestDigest: e.requestDigest ?? null,
      method: e.method ?? null,
      path: e.path ?? null,
      httpStatus: e.httpStatus ?? null,
      outcome: e.outcome,
      answer: answerText(e.answer),
      at: e.at ?? new Date().toISOString(),
    });
  }

  list(filter: JournalFilter = {}): JournalEntry[] {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (filter.itemId) {
      where.push('item_id = @itemId');
      params.itemId = filter.itemId;
    }
    if (filter.kind) {
      where.push('kind = @kind');
      params.kind = filter.kind;
    }
    if (filter.since) {
      where.push('at >= @since');
      params.since = filter.since;
    }
    const limit = filter.limit && filter.limit > 0 ? ` LIMIT ${Math.floor(filter.limit)}` : '';
    const sql = `SELECT * FROM outbox_journal${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY seq${limit}`;
    return (this.db.prepare(sql).all(params) as JournalRow[]).map(toEntry);
  }
}
