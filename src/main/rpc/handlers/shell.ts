import { isSafeExternalUrl } from '../../../shared/external-url';
import type { Session } from '../../app/session';
import type { Handlers } from '../dispatch';
import type { HostInfo } from './host';

/** What the host does outside the renderer: external links (https only) and the open/save dialogs. */
export function shellHandlers(session: Session, host: HostInfo): Pick<Handlers, 'openExternal' | 'showOpenDialog' | 'showSaveDialog'> {
  return {
    openExternal: async ({ url }) => ({ opened: isSafeExternalUrl(url) ? await host.openExternal(url) : false }),
    showOpenDialog: async (args) => ({ path: await session.chooseFile('open', args) }),
    showSaveDialog: async (args) => ({ path: await session.chooseFile('save', args) }),
  };
}
