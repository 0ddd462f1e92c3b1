import type { ErrorCode, ReplyError } from '../../shared/contract';

/** An error a handler throws on purpose: its code and message reach the renderer as they are. */
export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Error class names of the core mapped to reply codes (matched by name: the dispatcher imports no service). */
const BY_NAME: Record<string, ErrorCode> = {
  CredentialError: 'invalid_credentials',
  AuthError: 'auth',
  NetworkError: 'offline',
  OfflineError: 'offline',
  TimeoutError: 'offline',
  NotFoundError: 'not_found',
  ConflictError: 'conflict',
  KeychainError: 'keychain',
  KeychainUnavailableError: 'keychain',
  InvalidInputError: 'bad_request',
  ValidationError: 'bad_request',
  OutboxValidationError: 'bad_request',
  OutboxStateError: 'conflict',
  StoreQueryError: 'bad_request',
  ConnectionError: 'not_found',
};

/** Codes some core errors carry in a `kind` or `code` field. */
const BY_KIND: Record<string, ErrorCode> = {
  auth: 'auth',
  network: 'offline',
  offline: 'offline',
  timeout: 'offline',
  'not-found': 'not_found',
  not_found: 'not_found',
  conflict: 'conflict',
  'invalid-input': 'bad_request',
  invalid_input: 'bad_request',
  credentials: 'invalid_credentials',
  rate_limited: 'busy',
  cancelled: 'busy',
  uncertain: 'conflict',
  keychain: 'keychain',
  ECONNREFUSED: 'offline',
  ECONNRESET: 'offline',
  ENOTFOUND: 'offline',
  ETIMEDOUT: 'offline',
  EHOSTUNREACH: 'offline',
};

const MAX_MESSAGE = 600;

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

/** Turns anything thrown into a reply error: a code, and one redacted line (never a stack trace). */
export function toReplyError(error: unknown): ReplyError {
  let code: ErrorCode = 'internal';
  let message = 'Something went wrong in the app core.';
  if (error instanceof RpcError) {
    code = error.code;
    message = error.message;
  } else if (error instanceof Error) {
    const named = BY_NAME[error.name] ?? BY_NAME[error.constructor?.name ?? ''];
    const fields = error as Error & { kind?: unknown; code?: unknown; cause?: unknown };
    const kind = typeof fields.kind === 'string' ? BY_KIND[fields.kind] : undefined;
    const errno = typeof fields.code === 'string' ? BY_KIND[fields.code] : undefined;
    const causeCode = (fields.cause as { code?: unknown } | undefined)?.code;
    const cause = typeof causeCode === 'string' ? BY_KIND[causeCode] : undefined;
    code = named ?? kind ?? errno ?? cause ?? 'internal';
    if (error.message) message = error.message;
    if (error.name === 'AbortError') code = 'busy';
  }
  const firstLine = redact(message).split('\n')[0] ?? '';
  const reply: ReplyError = { code, message: firstLine.length > MAX_MESSAGE ? `${firstLine.slice(0, MAX_MESSAGE)}…` : firstLine };
  // Validation errors name the field at fault, so forms can show the message next to it.
  const field = (error as { field?: unknown } | null)?.field;
  if (code === 'bad_request' && typeof field === 'string' && field.length <= 200) reply.field = field;
  return reply;
}
