import type { Session } from '../../app/session';
import { inspectCredentials, testConnection } from '../../app/saved-connections';
import type { Handlers } from '../dispatch';
import type { HostInfo } from './host';

/** Saved connections, opening a workspace (or the demo tenant), and the connection state. */
export function connectionHandlers(
  session: Session,
  host: HostInfo,
): Pick<
  Handlers,
  | 'appInfo'
  | 'listConnections'
  | 'inspectCredentials'
  | 'testConnection'
  | 'saveConnection'
  | 'provideSecret'
  | 'replaceCredential'
  | 'removeConnection'
  | 'openWorkspace'
  | 'openDemoTenant'
  | 'connectionState'
  | 'setAutoRun'
  | 'autoRunStatus'
> {
  return {
    appInfo: async () => ({
      version: host.version,
      host: host.host,
      platform: host.platform,
      dataDir: session.dataDir,
      keychainAvailable: await session.keychainAvailable(),
    }),
    listConnections: () => session.connections(),
    inspectCredentials: (args) => inspectCredentials(args),
    testConnection: (args) => testConnection(args),
    saveConnection: async (args) => ({ connection: await session.saveConnection(args) }),
    provideSecret: async ({ clientSecret, keep }) => {
      const workspace = await session.provideSecret(clientSecret, keep);
      return { connection: workspace.connection, state: await session.connectionState() };
    },
    replaceCredential: async (args) => {
      const connection = await session.replaceCredential(args);
      // The open connection was opened again with the new credential (and checked); another one is told as saved.
      const state = await session.connectionState();
      return { connection, state };
    },
    removeConnection: async ({ name }) => {
      await session.removeConnection(name);
      return {};
    },
    openWorkspace: async ({ name }) => {
      const workspace = await session.openConnection(name);
      return { connection: workspace.connection, state: await session.connectionState() };
    },
    openDemoTenant: async () => {
      const workspace = await session.openDemoTenant();
      return { connection: workspace.connection, state: await session.connectionState() };
    },
    connectionState: ({ recheck }) => session.connectionState(recheck),
    setAutoRun: ({ name, sendWhenOnline, syncEveryMinutes }) => session.setAutoRun(name, { sendWhenOnline, syncEveryMinutes }),
    autoRunStatus: () => session.autoRunStatus(),
  };
}
