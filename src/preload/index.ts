import { contextBridge } from 'electron';

// The bridge: one named function per contract channel (filled in with the contract).
contextBridge.exposeInMainWorld('attest', {});
