import { app, BrowserWindow, shell } from 'electron';
import { join } from 'node:path';
import { NOTICES_FILE } from './app/about';
import { createEventBus } from './events';
import { createDispatcher } from './rpc/dispatch';
import { createHandlers } from './rpc/handlers';
import { createSession, type Session } from './app/session';
import { defaultDataDir } from './app/data-dir';
import { nativeDialogs } from './shell/dialogs';
import { forwardEvents, registerIpc } from './shell/ipc';
import { installMenu } from './shell/menu';
import { desktopNotifier } from './shell/notifier';
import { registerAppScheme, serveRenderer } from './shell/protocol';
import { APP_ENTRY_URL, APP_ORIGIN } from './shell/security';
import { createMainWindow, lockDownSession, openExternalSafely } from './shell/window';

// The Electron entry: a thin shell. The core (the application layer and below) runs the same under plain Node.
const log = (line: string) => process.stderr.write(`attest: ${line}\n`);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  registerAppScheme();
  let mainWindow: BrowserWindow | null = null;
  let session: Session | null = null;
  const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
  const appOrigins = () => (devUrl ? [APP_ORIGIN, new URL(devUrl).origin] : [APP_ORIGIN]);

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app
    .whenReady()
    .then(() => {
      lockDownSession();
      serveRenderer(join(__dirname, '../renderer'));
      const events = createEventBus(log);
      // Help → Documentation and About open in the app (the documentation ships in the renderer bundle).
      installMenu({
        isMac: process.platform === 'darwin',
        dev: !app.isPackaged,
        onCommand: (command) => events.emit('menuCommand', { command }),
      });
      session = createSession({
        dataDir: defaultDataDir(),
        appVersion: app.getVersion(),
        events,
        dialogs: nativeDialogs(() => mainWindow),
        showInFolder: async (path) => {
          shell.showItemInFolder(path);
          return true;
        },
        // Development builds only: packaged builds set the runAsNode fuse off and ship no reference tenant.
        demoTenant: app.isPackaged
          ? undefined
          : { execPath: process.execPath, cliPath: join(app.getAppPath(), 'bin', 'attest.mjs'), env: { ELECTRON_RUN_AS_NODE: '1' } },
        notifier: desktopNotifier(log),
        log,
      });
      const handlers = createHandlers(session, {
        host: 'electron',
        version: app.getVersion(),
        platform: process.platform,
        runtime: [
          { name: 'Electron', version: process.versions.electron ?? '' },
          { name: 'Chromium', version: process.versions.chrome ?? '' },
          { name: 'Node', version: process.versions.node },
        ],
        noticesFile: join(__dirname, '../renderer', NOTICES_FILE),
        openExternal: openExternalSafely,
      });
      registerIpc(createDispatcher({ handlers, allowedOrigins: appOrigins, host: 'electron', log }));
      forwardEvents(events, () => mainWindow);
      mainWindow = createMainWindow(join(__dirname, '../preload/index.cjs'), devUrl ?? APP_ENTRY_URL, appOrigins);
      mainWindow.on('closed', () => (mainWindow = null));
    })
    .catch((error: unknown) => {
      log(`could not open the main window: ${(error as Error).message}`);
      app.exit(1);
    });

  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', () => void session?.shutdown());
}
