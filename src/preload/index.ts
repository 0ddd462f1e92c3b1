import { contextBridge, ipcRenderer } from 'electron';
import { CHANNEL_NAMES, EVENT_NAMES, ipcChannel, ipcEvent, subscriberName } from '../shared/contract-names';

// The bridge, and nothing else: one named function per contract channel and one subscription per
// event on `window.attest` (typed as AttestApi in src/shared/contract.ts). No generic invoke, no
// environment access; every call is checked again in the main process (sender and payload).
const api: Record<string, unknown> = {};
for (const name of CHANNEL_NAMES) {
  const channel = ipcChannel(name);
  api[name] = (args?: unknown) => ipcRenderer.invoke(channel, args);
}
for (const name of EVENT_NAMES) {
  const channel = ipcEvent(name);
  api[subscriberName(name)] = (callback: (payload: unknown) => void) => {
    const listener = (_event: unknown, payload: unknown) => callback(payload);
    ipcRenderer.on(channel, listener);
    return () => void ipcRenderer.removeListener(channel, listener);
  };
}
contextBridge.exposeInMainWorld('attest', Object.freeze(api));
