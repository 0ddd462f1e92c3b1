import type { Session } from '../../app/session';
import type { Handlers } from '../dispatch';
import { aboutHandlers } from './about';
import { connectionHandlers } from './connections';
import type { HostInfo } from './host';
import { dataHandlers } from './data';
import { outboxHandlers } from './outbox';
import { reportHandlers } from './reports';
import { reviewHandlers } from './reviews';
import { shellHandlers } from './shell';

export type { HostInfo } from './host';

/** The contract's handlers, one module per domain: each handler a thin call into the application layer. */
export function createHandlers(session: Session, host: HostInfo): Handlers {
  return {
    ...aboutHandlers(session, host),
    ...connectionHandlers(session, host),
    ...dataHandlers(session),
    ...outboxHandlers(session),
    ...reportHandlers(session),
    ...reviewHandlers(session),
    ...shellHandlers(session, host),
  };
}
