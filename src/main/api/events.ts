/**
 * What the API client reports as it works, for progress displays, logs and tests. No event ever
 * carries a token, the client secret, a request body or a response body.
 */
export type ApiEvent =
  | { type: 'request'; method: string; path: string; attempt: number }
  | {
      type: 'response';
      method: string;
      path: string;
      status: number;
      attempt: number;
      ms: number;
      /** The body's size as received. */ bytes: number;
    }
  | { type: 'retry'; method: string; path: string; reason: string; delayMs: number; attempt: number }
  | { type: 'rate-limited'; method: string; path: string; waitMs: number }
  | { type: 'reauth'; method: string; path: string }
  | { type: 'token-request'; auth: 'assertion' | 'secret'; attempt: number }
  | { type: 'token-minted'; auth: 'assertion' | 'secret'; expiresInSeconds: number };
