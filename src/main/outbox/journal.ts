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

export interface JournalRow {
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

/** The columns of the entry's item that `rows` adds (null when the item is not there). */
export interface ItemColumns {
  item_summary: string | null;
  item_input: string | null;
  item_batch: number | null;
}

function journalWhere(filter: JournalFilter): { sql: string; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const add = (clause: string, name: string, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    where.push(clause);
    params[name] = value;
  };
  add('j.item_id = @itemId', 'itemId', filter.itemId);
  add('j.kind = @kind', 'kind', filter.kind);
  add('j.outcome = @outcome', 'outcome', filter.outcome);
  add('i.batch_id = @batch', 'batch', filter.batch);
  add('j.at >= @since', 'since', filter.since);
  add('j.at < @until', 'until', filter.until);
  return { sql: where.length ? ` WHERE ${where.join(' AND ')}` : '', params };
}

export function toEntry(r: JournalRow): JournalEntry {
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
    return this.rows(filter).map(toEntry);
  }

  /** The entries a filter matches, each with its item's summary, input and batch (for telling it in words). */
  rows(filter: JournalFilter = {}): (JournalRow & ItemColumns)[] {
    const { sql, params } = journalWhere(filter);
    const limit = filter.limit && filter.limit > 0 ? ` LIMIT ${Math.floor(filter.limit)}` : '';
    const offset = limit && filter.offset && filter.offset > 0 ? ` OFFSET ${Math.floor(filter.offset)}` : '';
    const order = filter.newestFirst ? 'DESC' : '';
    return this.db
      .prepare(
        `SELECT j.*, i.summary AS item_summary, i.input_json AS item_input, i.batch_id AS item_batch
         FROM outbox_journal j LEFT JOIN outbox_items i ON i.id = j.item_id${sql} ORDER BY j.seq ${order}${limit}${offset}`,
      )
      .all(params) as (JournalRow & ItemColumns)[];
  }

  /** How many entries a filter matches. */
  count(filter: JournalFilter = {}): number {
    const { sql, params } = journalWhere(filter);
    return this.db
      .prepare(`SELECT count(*) FROM outbox_journal j LEFT JOIN outbox_items i ON i.id = j.item_id${sql}`)
      .pluck()
      .get(params) as number;
  }
}
