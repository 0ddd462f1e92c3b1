/**
 * google.rpc.Status answers of the reference tenant: `{ code, message, details }` with the HTTP
 * status grpc-gateway gives each code, and the typed details (`@type`) the real service attaches.
 */
import type { AnyMessage, GoogleRpcStatus } from '../shared/api-types/common';

export const RPC = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;
export type RpcCode = (typeof RPC)[keyof typeof RPC];

/** HTTP status per code, as grpc-gateway maps them (FAILED_PRECONDITION is 400 there, not 412). */
const HTTP_STATUS: Record<RpcCode, number> = {
  3: 400,
  5: 404,
  6: 409,
  8: 429,
  9: 400,
  10: 409,
  12: 501,
  13: 500,
  14: 503,
  16: 401,
};

export interface FieldViolation {
  field: string;
  description: string;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly httpStatus: number;
  /** Extra response headers (Retry-After, WWW-Authenticate, Allow). */
  readonly headers: Record<string, string>;

  constructor(
    readonly code: RpcCode,
    message: string,
    readonly details: AnyMessage[] = [],
    options: { httpStatus?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.httpStatus = options.httpStatus ?? HTTP_STATUS[code];
    this.headers = options.headers ?? {};
  }

  body(): GoogleRpcStatus {
    return { code: this.code, message: this.message, details: this.details };
  }
}

const TYPE = 'type.googleapis.com/google.rpc.';

export function invalidArgument(message: string, violations: FieldViolation[] = []): ApiError {
  return new ApiError(
    RPC.INVALID_ARGUMENT,
    message,
    violations.length ? [{ '@type': `${TYPE}BadRequest`, fieldViolations: violations }] : [],
  );
}

/** A bad field: the message names it, and a BadRequest detail carries it for programs. */
export function badField(field: string, description: string): ApiError {
  return invalidArgument(`invalid ${field}: ${description}`, [{ field, description }]);
}

/** A request holding members the service sets (read-only, output only): refused, each one named. */
export function outputOnly(fields: string[]): ApiError {
  const description = 'is output only: the service sets it, and a request may not carry it';
  return invalidArgument(
    `invalid ${fields.join(', ')}: output only, set by the service; leave ${fields.length === 1 ? 'it' : 'them'} out of the request`,
    fields.map((field) => ({ field, description })),
  );
}

export function notFound(resourceType: string, resourceName: string, message?: string): ApiError {
  return new ApiError(RPC.NOT_FOUND, message ?? `${resourceType} '${resourceName}' not found`, [
    { '@type': `${TYPE}ResourceInfo`, resourceType, resourceName, description: 'not found' },
  ]);
}

export function alreadyExists(resourceType: string, resourceName: string, message: string): ApiError {
  return new ApiError(RPC.ALREADY_EXISTS, message, [
    { '@type': `${TYPE}ResourceInfo`, resourceType, resourceName, description: 'already exists' },
  ]);
}

export function failedPrecondition(type: string, subject: string, description: string): ApiError {
  return new ApiError(RPC.FAILED_PRECONDITION, description, [
    { '@type': `${TYPE}PreconditionFailure`, violations: [{ type, subject, description }] },
  ]);
}

export function unauthenticated(message: string): ApiError {
  return new ApiError(RPC.UNAUTHENTICATED, message, [], { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });
}

export function resourceExhausted(message: string, retryAfter: string, retryDelaySeconds: number): ApiError {
  return new ApiError(RPC.RESOURCE_EXHAUSTED, message, [{ '@type': `${TYPE}RetryInfo`, retryDelay: `${retryDelaySeconds}s` }], {
    headers: { 'Retry-After': retryAfter },
  });
}

/** A change refused because of a concurrent one (nothing applied): the caller may try again. */
export function aborted(message = 'the request was aborted because of a concurrent change, try again'): ApiError {
  return new ApiError(RPC.ABORTED, message);
}

export function internal(message = 'internal error'): ApiError {
  return new ApiError(RPC.INTERNAL, message);
}

export function unavailable(message = 'the service is unavailable, try again later'): ApiError {
  return new ApiError(RPC.UNAVAILABLE, message);
}

/** grpc-gateway's answer to a known path with another method: 405, code UNIMPLEMENTED. */
export function methodNotAllowed(method: string, path: string, allowed: string[]): ApiError {
  return new ApiError(RPC.UNIMPLEMENTED, `method ${method} is not allowed on ${path}`, [], {
    httpStatus: 405,
    headers: { Allow: allowed.join(', ') },
  });
}
