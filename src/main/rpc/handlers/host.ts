/** What the front that runs the handlers is, and what it can do outside the app. */
export interface HostInfo {
  host: 'electron' | 'browser';
  version: string;
  platform: string;
  /** What runs the app, where known (Electron, Chromium, Node; or Node alone in the browser host). */
  runtime: { name: string; version: string }[];
  /** The third-party notices generated at build time (beside the renderer bundle). */
  noticesFile: string;
  /** Opens a validated https URL outside the app; false where the host cannot. */
  openExternal(url: string): Promise<boolean>;
}
