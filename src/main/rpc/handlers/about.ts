import { readNotices } from '../../app/about';
import type { Session } from '../../app/session';
import type { Handlers } from '../dispatch';
import type { HostInfo } from './host';

/** About Attest: version, what runs it, the data folder, and this build's third-party notices. */
export function aboutHandlers(session: Session, host: HostInfo): Pick<Handlers, 'aboutApp'> {
  return {
    aboutApp: async () => ({
      version: host.version,
      host: host.host,
      runtime: host.runtime,
      platform: host.platform,
      dataDir: session.dataDir,
      notices: await readNotices(host.noticesFile),
    }),
  };
}
