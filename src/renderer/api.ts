import type { ChannelArgs, ChannelName, ChannelResult, ErrorCode, EventName, EventPayload, SubscriberName } from '../shared/contract';

/** A failed call, with the contract's error code (offline, auth, not_found…) and a message for people. */
export class AttestError extends Error {
  override name = 'AttestError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** For refused inputs: the field at fault. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Calls one channel of window.attest and unwraps its reply; failures throw AttestError. */
export async function call<C extends ChannelName>(name: C, args?: ChannelArgs<C>): Promise<ChannelResult<C>> {
  const bridge = window.attest;
  if (!bridge) throw new AttestError('unsupported', 'The app bridge is missing.');
  const fn = bridge[name] as (args?: ChannelArgs<C>) => Promise<import('../shared/contract').Reply<ChannelResult<C>>>;
  const reply = await fn(args);
  if (!reply || typeof reply !== 'object') throw new AttestError('internal', 'The app core gave no answer.');
  if (reply.ok) return reply.value;
  throw new AttestError(reply.error.code, reply.error.message, reply.error.field);
}

/** Subscribes to one event of window.attest; returns the unsubscribe. */
export function subscribe<E extends EventName>(event: E, callback: (payload: EventPayload<E>) => void): () => void {
  const name = `on${event.charAt(0).toUpperCase()}${event.slice(1)}` as SubscriberName<E>;
  const bridge = window.attest as unknown as Record<string, (cb: (payload: EventPayload<E>) => void) => () => void> | undefined;
  const fn = bridge?.[name];
  return fn ? fn(callback) : () => {};
}

export function errorMessage(error: unknown): string {
  if (error instanceof AttestError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function isOfflineError(error: unknown): boolean {
  return error instanceof AttestError && error.code === 'offline';
}
