/** Exit codes of the attest CLI, stable for scripts. */
export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  auth: 3,
  network: 4,
  /** Some outbox items failed or are uncertain. */
  outboxIncomplete: 5,
  /** A partial import queued its valid rows and refused others (`queue import --partial`). */
  importPartial: 6,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit code for an error that ended a command: a bad command line or invalid input (a malformed
 * credential given on the command line included, an output file that is there already) -> usage;
 * refused or unreadable stored credentials, or no way to reach the secret -> auth; the tenant
 * unreachable, a timeout, or a change whose fate is unknown after a network failure -> network;
 * else other.
 * Errors are recognised by their `name` and `kind`/`code`, so any layer's typed errors map
 * without this file importing them all.
 */
export function exitCodeFor(error: unknown): ExitCode {
  if (typeof error !== 'object' || error === null) return EXIT.other;
  const { name, kind, code } = error as { name?: unknown; kind?: unknown; code?: unknown };
  switch (name) {
    case 'UsageError':
    case 'InvalidInputError':
    case 'InputFileError':
    case 'OutputFileExistsError':
    case 'InvalidArgumentError':
    case 'StoreQueryError':
    case 'AutomationSearchError':
      return EXIT.usage;
    case 'CredentialError':
    case 'KeychainError':
      return EXIT.auth;
    case 'ConnectionError':
      if (code === 'no_secret' || code === 'keychain_unavailable') return EXIT.auth;
      if (code === 'not_found' || code === 'ambiguous' || code === 'invalid_name' || code === 'exists' || code === 'other_tenant')
        return EXIT.usage;
      return EXIT.other;
    case 'CoreError':
      // A read that needs the tenant, asked of a store opened without one.
      return code === 'offline' ? EXIT.network : EXIT.other;
    case 'ApiError':
      if (kind === 'auth') return EXIT.auth;
      if (kind === 'network' || kind === 'timeout' || kind === 'uncertain') return EXIT.network;
      return EXIT.other;
    default:
      return EXIT.other;
  }
}
