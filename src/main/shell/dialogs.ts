import { dialog, type BrowserWindow } from 'electron';
import type { Dialogs } from '../app/session';

/** Native open/save dialogs, attached to the main window. */
export function nativeDialogs(window: () => BrowserWindow | null): Dialogs {
  return {
    async open(options) {
      const parent = window();
      const properties: ('openFile' | 'openDirectory')[] = [options.directory ? 'openDirectory' : 'openFile'];
      const dialogOptions = { title: options.title, filters: options.filters, properties };
      const result = parent ? await dialog.showOpenDialog(parent, dialogOptions) : await dialog.showOpenDialog(dialogOptions);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async save(options) {
      const parent = window();
      const dialogOptions = { title: options.title, defaultPath: options.defaultName, filters: options.filters };
      const result = parent ? await dialog.showSaveDialog(parent, dialogOptions) : await dialog.showSaveDialog(dialogOptions);
      return result.canceled ? null : (result.filePath ?? null);
    },
  };
}
