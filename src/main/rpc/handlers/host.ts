/** What the front that runs the handlers is, and what it can do outside the app. */
export interface HostInfo {
  host: 'electron' | 'browser';
  version: string;
  platform: string;
  /** Opens a validated https URL outside the app; false where the host cannot. */
  openExternal(url: string): Promise<boolean>;
}
