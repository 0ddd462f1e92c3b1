import type { ErrorCode } from '../shared/contract';

/**
 * Errors the core raises on purpose for its fronts: a code (the contract's error codes) and a
 * message meant for people. The fronts decide what a code becomes: a reply (rpc/errors.ts) or an
 * exit code (cli/exit-codes.ts).
 */
export class CoreError extends Error {
  override name = 'CoreError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Removes anything secret-looking from a message: client secrets, JWK private members, bearer
 * tokens and long base64url runs (keys, assertions). Applied to every error text that leaves the core.
 */
export function redact(text: string): string {
  return text
    .replace(/secret-token:[^\s'"`,;)]*/g, 'secret-token:[redacted]')
    .replace(/("?\bd"?\s*[:=]\s*"?)[A-Za-z0-9_-]{16,}/g, '$1[redacted]')
    .replace(/(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]')
    .replace(/\beyJ[A-Za-z0-9_-]{10,}(\.[A-Za-z0-9_-]*){1,4}/g, '[redacted-jwt]')
    .replace(/[A-Za-z0-9_-]{40,}/g, '[redacted]');
}

/** The first line of what was thrown, for a log line or a progress event (`fallback` when there is none). */
export function firstLineOf(error: unknown, fallback: string): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? fallback) : String(error);
}
