import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import { CHANNEL_NAMES, ipcChannel, ipcEvent } from '../../shared/contract';
import type { EventBus } from '../events';
import type { Dispatcher, Sender } from '../rpc/dispatch';

/** What the dispatcher needs to know of an IPC sender: its frame's URL and whether it is the main frame. */
export function senderOf(event: IpcMainInvokeEvent): Sender | null {
  const frame = event.senderFrame;
  if (!frame) return null;
  return { url: frame.url, isMainFrame: frame === event.sender.mainFrame && frame.parent === null };
}

/** One ipcMain handler per contract channel, all through the checked dispatcher. */
export function registerIpc(dispatcher: Dispatcher): () => void {
  for (const name of CHANNEL_NAMES) {
    ipcMain.handle(ipcChannel(name), (event, payload: unknown) => dispatcher.dispatch(name, payload, senderOf(event)));
  }
  return () => {
    for (const name of CHANNEL_NAMES) ipcMain.removeHandler(ipcChannel(name));
  };
}

/** Forwards core events to the window (already validated by the bus). */
export function forwardEvents(events: EventBus, window: () => BrowserWindow | null): () => void {
  return events.subscribe((event, payload) => {
    const target = window();
    if (target && !target.isDestroyed()) target.webContents.send(ipcEvent(event), payload);
  });
}
