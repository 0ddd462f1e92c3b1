import type { ErrorCode, ReplyError } from '../../shared/contract';
import { CoreError, redact } from '../errors';

/**
 * Core errors mapped to replies. A CoreError carries its reply code; the other errors of the core
 * are matched by class name (and by the `kind` or `code` some of them carry), so this file needs
 * to import no service.
 */
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
  AutomationSearchError: 'bad_request',
  ConnectionError: 'not_found',
};

/** The saved-connection errors (connections.ts) by their code. */
const CONNECTION_CODES: Record<string, ErrorCode> = {
  not_found: 'not_found',
  none: 'not_found',
  exists: 'conflict',
  ambiguous: 'conflict',
  keychain_unavailable: 'keychain',
  invalid_name: 'bad_request',
  other_tenant: 'bad_request',
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

function codeOf(error: Error): ErrorCode {
  if (error instanceof CoreError) return error.code;
  const fields = error as Error & { kind?: unknown; code?: unknown; cause?: unknown };
  if (error.name === 'ConnectionError') return (typeof fields.code === 'string' && CONNECTION_CODES[fields.code]) || 'internal';
  if (error.name === 'AbortError') return 'busy';
  const named = BY_NAME[error.name] ?? BY_NAME[error.constructor?.name ?? ''];
  const kind = typeof fields.kind === 'string' ? BY_KIND[fields.kind] : undefined;
  const errno = typeof fields.code === 'string' ? BY_KIND[fields.code] : undefined;
  const causeCode = (fields.cause as { code?: unknown } | undefined)?.code;
  const cause = typeof causeCode === 'string' ? BY_KIND[causeCode] : undefined;
  return named ?? kind ?? errno ?? cause ?? 'internal';
}

/** Turns anything thrown into a reply error: a code, and one redacted line (never a stack trace). */
export function toReplyError(error: unknown): ReplyError {
  let code: ErrorCode = 'internal';
  let message = 'Something went wrong in the app core.';
  if (error instanceof Error) {
    code = codeOf(error);
    if (error.message) message = error.message;
  }
  const firstLine = redact(message).split('\n')[0] ?? '';
  const reply: ReplyError = { code, message: firstLine.length > MAX_MESSAGE ? `${firstLine.slice(0, MAX_MESSAGE)}…` : firstLine };
  // Validation errors name the field at fault, so forms can show the message next to it.
  const field = (error as { field?: unknown } | null)?.field;
  if (code === 'bad_request' && typeof field === 'string' && field.length <= 200) reply.field = field;
  return reply;
}
