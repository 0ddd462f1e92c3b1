import { Menu, type MenuItemConstructorOptions } from 'electron';
import { openExternalSafely } from './window';

/** The native menu with the usual roles and shortcuts (copy/paste, zoom, reload in dev, quit). */
export function installMenu(options: { isMac: boolean; dev: boolean; docsUrl: string }): void {
  const template: MenuItemConstructorOptions[] = [
    ...(options.isMac ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...(options.dev ? [{ role: 'reload' as const }, { role: 'toggleDevTools' as const }, { type: 'separator' as const }] : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: 'Documentation', click: () => void openExternalSafely(options.docsUrl) }],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
