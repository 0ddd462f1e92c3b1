import { BrowserWindow, session, shell, type WebContents } from 'electron';
import { isSafeExternalUrl } from '../../shared/external-url';
import { isInAppNavigation, mainWindowOptions } from './security';

/** Opens an external link only if it is a plain https URL; everything else is refused silently. */
export async function openExternalSafely(url: string): Promise<boolean> {
  if (!isSafeExternalUrl(url)) return false;
  await shell.openExternal(url, { activate: true });
  return true;
}

/** Denies navigation away from the app, new windows, webviews and every permission request. */
export function lockDownContents(contents: WebContents, appOrigins: () => readonly string[]): void {
  contents.on('will-navigate', (event) => {
    if (!isInAppNavigation(event.url, appOrigins())) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isInAppNavigation(event.url, appOrigins())) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalSafely(url);
    return { action: 'deny' };
  });
}

export function lockDownSession(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

export function createMainWindow(preloadPath: string, entryUrl: string, appOrigins: () => readonly string[]): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preloadPath));
  lockDownContents(window.webContents, appOrigins);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(entryUrl);
  return window;
}
