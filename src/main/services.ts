import { RpcError } from './rpc/errors';
import type { EventBus } from './rpc/dispatch';
import type { ChannelArgs, ConnectionInfo, ConnectionState } from '../shared/contract';

/**
 * The composition root: the one place the fronts (Electron IPC, the browser host) get core
 * services from. Opening a workspace = a data folder + a saved connection -> an API client, a
 * store and a job runner. Handlers (rpc/handlers.ts) only call what is here.
 */

export interface Dialogs {
  open(options: ChannelArgs<'showOpenDialog'>): Promise<string | null>;
  save(options: ChannelArgs<'showSaveDialog'>): Promise<string | null>;
}

export interface ServicesOptions {
  dataDir: string;
  host: 'electron' | 'browser';
  version: string;
  platform: string;
  events: EventBus;
  dialogs: Dialogs;
  /** Opens a validated https URL outside the app; false where the host cannot. */
  openExternal(url: string): Promise<boolean>;
  log?: (line: string) => void;
}

export interface Services {
  readonly options: ServicesOptions;
  activeConnection(): ConnectionInfo | null;
  connectionState(): ConnectionState;
  close(): Promise<void>;
}

export function notYet(what: string): never {
  throw new RpcError('unsupported', `${what} is not available in this build yet.`);
}

export function createServices(options: ServicesOptions): Services {
  let state: ConnectionState = { connection: null, online: false, checkedAt: null, reason: null };
  return {
    options,
    activeConnection: () => null,
    connectionState: () => state,
    async close() {
      state = { ...state, connection: null };
    },
  };
}
