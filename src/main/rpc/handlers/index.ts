import type { Session } from '../../app/session';
import type { Handlers } from '../dispatch';
import { connectionHandlers } from './connections';
import { dataHandlers } from './data';
import { outboxHandlers } from './outbox';
import { reportHandlers } from './reports';
import { shellHandlers } from './shell';

/** What the front that runs the handlers is, and what it can do outside the app. */
export interface HostInfo {
  host: 'electron' | 'browser';
  version: string;
  platform: string;
  /** Opens a validated https URL outside the app; false where the host cannot. */
  openExternal(url: string): Promise<boolean>;
}

/** The contract's handlers, one module per domain: each handler a thin call into the application layer. */
export function createHandlers(session: Session, host: HostInfo): Handlers {
  return {
    ...connectionHandlers(session, host),
    ...dataHandlers(session),
    ...outboxHandlers(session),
    ...reportHandlers(session),
    ...shellHandlers(session, host),
  };
}
