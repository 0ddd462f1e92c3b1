/**
 * The OS keychain (keytar: the Secret Service on Linux, Keychain on macOS, Credential Vault on
 * Windows). Client secrets live here and nowhere else: service `attest`, account = client id.
 *
 * A machine without a keychain (a headless server without a Secret Service) makes every call
 * fail with a KeychainError; callers then fall back to `ATTEST_CLIENT_SECRET` for one run.
 */
import { createRequire } from 'node:module';

export interface SecretStore {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True when an entry was removed. */
  delete(account: string): Promise<boolean>;
}

export const KEYCHAIN_SERVICE = 'attest';

/** The keychain could not be reached. The message says why, and never holds a secret. */
export class KeychainError extends Error {
  override name = 'KeychainError';
  readonly code = 'unavailable';
}

interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

let loaded: Keytar | undefined;

/**
 * What to do where the keychain module is missing. keytar is an optional dependency: npm builds it
 * from source, and leaves it out where the build cannot run (no compiler or no libsecret headers).
 */
export const KEYCHAIN_MODULE_MISSING =
  process.platform === 'linux'
    ? 'The OS keychain module (keytar) is not installed: npm builds it where libsecret-1-dev, g++ and make are present. ' +
      'Add them with `sudo apt-get install libsecret-1-dev g++ make`, then run `npm install` again'
    : 'The OS keychain module (keytar) is not installed: npm builds it where a C++ compiler is present. Add one, then run `npm install` again';

function keytar(): Keytar {
  if (!loaded) {
    try {
      // keytar is a CommonJS native addon: load it the CommonJS way, only when first needed.
      loaded = createRequire(import.meta.url)('keytar') as Keytar;
    } catch (error) {
      if (isMissingModule(error, 'keytar')) throw new KeychainError(KEYCHAIN_MODULE_MISSING);
      throw new KeychainError(`The OS keychain module could not be loaded (${reason(error)})`);
    }
  }
  return loaded;
}

/** True where the keychain module is not installed (npm could not build it): see KEYCHAIN_MODULE_MISSING. */
export function keychainModuleMissing(): boolean {
  try {
    keytar();
    return false;
  } catch (error) {
    return error instanceof KeychainError && error.message === KEYCHAIN_MODULE_MISSING;
  }
}

/** True when `error` says `name` itself is not installed (not one of its own imports). */
function isMissingModule(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === 'MODULE_NOT_FOUND' && typeof message === 'string' && message.startsWith(`Cannot find module '${name}'`);
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 200) || 'unknown error';
}

async function call<T>(what: string, run: (k: Keytar) => Promise<T>): Promise<T> {
  const k = keytar();
  try {
    return await run(k);
  } catch (error) {
    throw new KeychainError(`The OS keychain is not available: could not ${what} (${reason(error)})`);
  }
}

function checkAccount(account: string): void {
  if (typeof account !== 'string' || account.length === 0) throw new TypeError('keychain account must be a non-empty string');
}

/** The OS keychain under `service` (default `attest`). */
export function osKeychain(service: string = KEYCHAIN_SERVICE): SecretStore {
  return {
    get: (account) => {
      checkAccount(account);
      return call('read a secret', (k) => k.getPassword(service, account));
    },
    set: (account, secret) => {
      checkAccount(account);
      if (!secret) throw new TypeError('refusing to store an empty secret');
      return call('store a secret', (k) => k.setPassword(service, account, secret));
    },
    delete: (account) => {
      checkAccount(account);
      return call('remove a secret', (k) => k.deletePassword(service, account));
    },
  };
}

/**
 * Whether the OS keychain answers: one harmless read, given `timeoutMs` (a locked or absent
 * Secret Service can hang instead of failing).
 */
export async function keychainAvailable(timeoutMs = 5000, service: string = KEYCHAIN_SERVICE): Promise<boolean> {
  return secretStoreAnswers(osKeychain(service), timeoutMs);
}

/** Whether a secret store answers a harmless read within `timeoutMs`. */
export async function secretStoreAnswers(store: SecretStore, timeoutMs = 5000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const probe = store.get('attest-availability-probe');
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new KeychainError('The OS keychain did not answer in time')), timeoutMs);
    });
    await Promise.race([probe, timeout]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** A keychain in memory, for tests and for callers that hold a secret for one run only. */
export function memorySecretStore(initial: Record<string, string> = {}): SecretStore {
  const map = new Map(Object.entries(initial));
  return {
    get: async (account) => map.get(account) ?? null,
    set: async (account, secret) => void map.set(account, secret),
    delete: async (account) => map.delete(account),
  };
}

/** A keychain that is never there: what a headless server without a Secret Service looks like. */
export function unavailableSecretStore(why = 'no Secret Service on this machine'): SecretStore {
  const fail = async (): Promise<never> => {
    throw new KeychainError(`The OS keychain is not available (${why})`);
  };
  return { get: fail, set: fail, delete: fail };
}

/**
 * Secrets held in memory for this run first (the user chose not to keep them, or there is no
 * keychain to keep them in), then `keychain`. Writes and removals go to the keychain.
 */
export function heldThenKeychain(held: SecretStore, keychain: SecretStore): SecretStore {
  return {
    get: async (account) => (await held.get(account)) ?? keychain.get(account),
    set: (account, secret) => keychain.set(account, secret),
    delete: (account) => keychain.delete(account),
  };
}
