import type { z } from 'zod';
import { EVENTS, type EventName, type EventPayload } from '../shared/contract';
import { redact } from './errors';

/**
 * Core -> renderer events (sync, send and export progress, the connection state): checked once
 * against the contract's schema here, then fanned out to every front that listens (the Electron
 * window, the browser host's event stream).
 */
export type EventListener = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export interface EventBus {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  subscribe(listener: EventListener): () => void;
}

/** A zod failure as one short line: the first few paths at fault and why. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}

export function createEventBus(log: (line: string) => void = () => {}): EventBus {
  const listeners = new Set<EventListener>();
  return {
    emit(event, payload) {
      const checked = EVENTS[event].safeParse(payload);
      if (!checked.success) {
        log(`event ${event} dropped: ${describeIssues(checked.error)}`);
        return;
      }
      for (const listener of listeners) {
        try {
          listener(event, checked.data as EventPayload<typeof event>);
        } catch (error) {
          log(`event listener failed: ${redact(error instanceof Error ? error.message : String(error)).split('\n')[0]}`);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
