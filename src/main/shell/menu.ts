import { Menu, type MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../../shared/contract';

/**
 * The native menu with the usual roles and shortcuts (copy/paste, zoom, reload in dev, quit), and
 * Help: the documentation that ships with the app and About, both shown by the renderer.
 */
export function installMenu(options: { isMac: boolean; dev: boolean; onCommand(command: MenuCommand['command']): void }): void {
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
      submenu: [
        { label: 'Documentation', click: () => options.onCommand('documentation') },
        { label: 'About Attest', click: () => options.onCommand('about') },
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
