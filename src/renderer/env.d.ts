/// <reference types="vite/client" />
import type { AttestApi } from '../shared/contract';

declare global {
  interface Window {
    /** The bridge: the Electron preload, or the browser host's bridge script. */
    readonly attest: AttestApi;
  }
}
export {};
