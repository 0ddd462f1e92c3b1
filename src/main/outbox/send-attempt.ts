/**
 * One attempt of one item: its request sent, and what the answer (or the failure) means for the
 * item: settled (succeeded, failed, uncertain) or not sent at all (never handled by the server).
 */
import { readApiError, type OutboxApi, type ReadError } from './api-shape';
import { descriptorOf, type KindDescriptor, type RefreshedObject } from './kinds';
import type { OutboxItem, OutboxState } from './types';

/** A settled attempt, as it is recorded. */
export interface Outcome {
  item: OutboxItem;
  attempt: number;
  state: OutboxState;
  httpStatus: number | null;
  answer: unknown;
  error: string | null;
  result: Record<string, unknown> | null;
  refresh: RefreshedObject[];
}

/** An attempt the server never handled: the item goes back to queued. */
export interface NotSent {
  item: OutboxItem;
  attempt: number;
  error: ReadError;
}

export type AttemptResult = ({ type: 'settled' } & { outcome: Outcome }) | ({ type: 'not-sent' } & NotSent);

/** Decides what an attempt's failure means for the item. */
export function stateForError(e: ReadError): OutboxState | 'not-sent' {
  switch (e.kind) {
    case 'invalid_input':
    case 'not_found':
    case 'conflict':
      return 'failed'; // the server said no: its reason is shown
    case 'auth':
    case 'rate_limited':
    case 'cancelled':
      return 'not-sent'; // refused before it was handled, or never sent
    case 'network':
      return 'not-sent'; // the client says: it certainly never reached the server
    default:
      return 'uncertain'; // 5xx, dropped connection, timeout, unreadable 2xx: it may have been applied
  }
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

function succeeded(d: KindDescriptor, item: OutboxItem, attempt: number, status: number, body: unknown): AttemptResult {
  return {
    type: 'settled',
    outcome: {
      item,
      attempt,
      state: 'succeeded',
      httpStatus: status,
      answer: body,
      error: null,
      result: safe(() => d.result(body, item.input), {}),
      refresh: safe(() => d.refresh?.(body, item.input) ?? [], []),
    },
  };
}

function refused(item: OutboxItem, attempt: number, error: unknown): AttemptResult {
  const e = readApiError(error);
  let state = stateForError(e);
  if (state === 'not-sent') return { type: 'not-sent', item, attempt, error: e };
  // "Already exists" on a later attempt of a creation is most likely our own earlier
  // attempt, applied: leave it to reconciliation to find it rather than call it failed.
  if (state === 'failed' && e.kind === 'conflict' && attempt > 1 && item.kind === 'create-scope') state = 'uncertain';
  return {
    type: 'settled',
    outcome: {
      item,
      attempt,
      state,
      httpStatus: e.status,
      answer: { kind: e.kind, grpcCode: e.grpcCode, message: e.message },
      error: e.message,
      result: null,
      refresh: [],
    },
  };
}

/** Sends the item's request (attempt number `attempt`, already claimed); never rejects. */
export function sendAttempt(api: OutboxApi, item: OutboxItem, attempt: number): Promise<AttemptResult> {
  const d = descriptorOf(item.kind);
  const { method, path, body } = item.request;
  return api.request({ method, path, body, mutation: true }).then(
    (res) => succeeded(d, item, attempt, res.status, res.body),
    (error: unknown) => refused(item, attempt, error),
  );
}
