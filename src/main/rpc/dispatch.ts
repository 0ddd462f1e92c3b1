import { CHANNELS, CHANNEL_NAMES, type ChannelName, type ChannelResult, type ParsedArgs, type Reply } from '../../shared/contract';
import { CoreError } from '../errors';
import { describeIssues } from '../events';
import { toReplyError } from './errors';

/**
 * The one checked door from a front (Electron IPC or the browser host) to the core handlers.
 * Every call is checked for its sender (our origin, a main frame), its channel (a contract name),
 * its payload (the channel's zod schema) and its result (the result schema, which also drops any
 * field the contract does not name). Failures become typed replies, never stack traces.
 */

/** Who sent a call, as the front saw it. */
export interface Sender {
  /** The URL of the sending frame (Electron) or the request's Origin (browser host). */
  url: string;
  isMainFrame: boolean;
}

/** What a handler knows of the call. */
export interface CallContext {
  channel: ChannelName;
  host: 'electron' | 'browser';
}

export type Handler<C extends ChannelName> = (args: ParsedArgs<C>, context: CallContext) => Promise<ChannelResult<C>> | ChannelResult<C>;
export type Handlers = { [C in ChannelName]: Handler<C> };

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    // Custom schemes (app://attest) have an opaque origin in WHATWG URL: rebuild it.
    if (parsed.origin === 'null') return parsed.host ? `${parsed.protocol}//${parsed.host}` : null;
    return parsed.origin;
  } catch {
    return null;
  }
}

/** A sender is ours when it is a main frame whose URL has one of our origins. */
export function isTrustedSender(sender: Sender | null | undefined, allowedOrigins: readonly string[]): boolean {
  if (!sender || !sender.isMainFrame || typeof sender.url !== 'string') return false;
  const origin = originOf(sender.url);
  return origin !== null && allowedOrigins.includes(origin);
}

export interface DispatcherOptions {
  handlers: Handlers;
  allowedOrigins: () => readonly string[];
  host: 'electron' | 'browser';
  /** Where refused calls and internal errors are logged (message only, redacted). */
  log?: (line: string) => void;
}

export interface Dispatcher {
  dispatch(channel: string, payload: unknown, sender: Sender | null | undefined): Promise<Reply<unknown>>;
}

const isChannel = (name: string): name is ChannelName => (CHANNEL_NAMES as readonly string[]).includes(name);

export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const log = options.log ?? (() => {});
  return {
    async dispatch(channel, payload, sender) {
      if (!isTrustedSender(sender, options.allowedOrigins())) {
        log(`refused ${String(channel).slice(0, 80)}: sender is not ours`);
        return { ok: false, error: { code: 'forbidden', message: 'This call did not come from the app.' } };
      }
      if (typeof channel !== 'string' || !isChannel(channel)) {
        return { ok: false, error: { code: 'unknown_channel', message: `Unknown channel '${String(channel).slice(0, 80)}'.` } };
      }
      const definition = CHANNELS[channel];
      const parsed = definition.args.safeParse(payload === null ? undefined : payload);
      if (!parsed.success) {
        return { ok: false, error: { code: 'bad_request', message: `Invalid arguments for ${channel}: ${describeIssues(parsed.error)}` } };
      }
      try {
        const handler = options.handlers[channel] as Handler<typeof channel>;
        const value = await handler(parsed.data as never, { channel, host: options.host });
        const checked = definition.result.safeParse(value);
        if (!checked.success) {
          log(`${channel}: result failed its schema: ${describeIssues(checked.error)}`);
          throw new CoreError('internal', `The core answered ${channel} in an unexpected shape.`);
        }
        return { ok: true, value: checked.data };
      } catch (error) {
        const reply = toReplyError(error);
        if (reply.code === 'internal') log(`${channel}: ${reply.message}`);
        return { ok: false, error: reply };
      }
    },
  };
}
