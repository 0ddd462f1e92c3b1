/**
 * API credentials: the client id `<random-id>@<hostname>/<use-case>` and the client secret
 * `secret-token:<domain>:v1:<base64url JWK>` (an Ed25519 private key).
 *
 * Every malformed part has its own CredentialError code and message. No message, error property
 * or returned object carries the secret string or the private key material: the key ends up in a
 * non-extractable WebCrypto CryptoKey that can sign and nothing else.
 */
import { createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';

export type CredentialErrorCode =
  | 'client_id_empty'
  | 'client_id_whitespace'
  | 'client_id_missing_at'
  | 'client_id_multiple_at'
  | 'client_id_random_id_missing'
  | 'client_id_random_id_invalid'
  | 'client_id_missing_use_case'
  | 'client_id_use_case_invalid'
  | 'client_id_hostname_missing'
  | 'client_id_hostname_invalid'
  | 'client_id_port_invalid'
  | 'server_url_invalid'
  | 'server_url_scheme'
  | 'server_url_insecure'
  | 'server_url_credentials'
  | 'server_url_query'
  | 'server_url_path'
  | 'secret_empty'
  | 'secret_prefix'
  | 'secret_structure'
  | 'secret_domain_missing'
  | 'secret_domain_invalid'
  | 'secret_version_missing'
  | 'secret_version_unsupported'
  | 'secret_key_missing'
  | 'secret_key_base64'
  | 'secret_key_json'
  | 'secret_key_not_object'
  | 'secret_key_kty'
  | 'secret_key_crv'
  | 'secret_key_public_only'
  | 'secret_key_d_invalid'
  | 'secret_key_x_invalid'
  | 'secret_key_mismatch'
  | 'secret_key_alg'
  | 'secret_key_use';

export type CredentialPart = 'client_id' | 'client_secret' | 'server_url';

/** A malformed credential. The message names the part and the problem, never the value. */
export class CredentialError extends Error {
  override name = 'CredentialError';
  readonly code: CredentialErrorCode;
  readonly part: CredentialPart;
  constructor(code: CredentialErrorCode, message: string) {
    super(message);
    this.code = code;
    this.part = code.startsWith('client_id') ? 'client_id' : code.startsWith('server_url') ? 'server_url' : 'client_secret';
  }
}

export interface ParsedClientId {
  clientId: string;
  /** The part before `@`. */
  randomId: string;
  /** The part between `@` and `/`, lower-cased; may carry a port (`127.0.0.1:8443`). */
  hostname: string;
  /** `hostname` without its port (IPv6 without brackets). */
  host: string;
  port?: number;
  /** The part after the first `/` following the hostname. */
  useCase: string;
  /** `{base}` of the API: scheme, host and port (and a path prefix when a server URL says so), no trailing slash. */
  baseUrl: string;
  tokenUrl: string;
  apiRoot: string;
  /** The `aud` of client assertions: the token host without its port. */
  audience: string;
  /** True when the token host is a loopback address (the only hosts reached over plain http). */
  loopback: boolean;
}

export interface ParsedClientSecret {
  /** The `<domain>` of the secret (any domain is accepted). */
  domain: string;
  /** Non-extractable Ed25519 signing key. */
  privateKey: webcrypto.CryptoKey;
  /** The public half, `{kty: 'OKP', crv: 'Ed25519', x}`. */
  publicJwk: { kty: 'OKP'; crv: 'Ed25519'; x: string };
  /** The JWK's `kid`, when it has one (sent as the JWS `kid` header). */
  keyId?: string;
}

const FORMAT_ID = "expected '<random-id>@<hostname>/<use-case>'";
const FORMAT_SECRET = "expected 'secret-token:<domain>:v1:<base64url JWK>'";

// Visible ASCII only; `@` and `/` separate the parts.
const ID_PART = /^[\x21-\x7e]+$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const PORT = /^[0-9]{1,5}$/;

/** Whitespace (any Unicode space) or a C0/DEL control character. */
function hasSpaceOrControl(text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f || /\s/.test(ch)) return true;
  }
  return false;
}

function fail(code: CredentialErrorCode, message: string): never {
  throw new CredentialError(code, message);
}

/** True for 127.0.0.0/8, `localhost` (and `*.localhost`), and `::1`. `host` carries no port or brackets. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  if (v4) return v4.slice(1).every((o) => Number(o) <= 255) && v4[1] === '127';
  if (h.includes(':')) {
    try {
      return new URL(`http://[${h}]/`).hostname === '[::1]';
    } catch {
      return false;
    }
  }
  return false;
}

interface HostParts {
  hostname: string;
  host: string;
  port?: number;
}

function parseHostPort(raw: string, code: 'client_id' | 'server_url'): HostParts {
  const hostCode = code === 'client_id' ? 'client_id_hostname_invalid' : 'server_url_invalid';
  const portCode = code === 'client_id' ? 'client_id_port_invalid' : 'server_url_invalid';
  const what = code === 'client_id' ? 'Client ID hostname' : 'Server URL host';
  const lower = raw.toLowerCase();
  let host: string;
  let portText: string | undefined;
  if (lower.startsWith('[')) {
    const close = lower.indexOf(']');
    if (close < 0) fail(hostCode, `${what} has an unclosed '[' (IPv6 addresses are written [addr]:port)`);
    host = lower.slice(1, close);
    const rest = lower.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) fail(hostCode, `${what} has characters after the IPv6 address`);
    if (rest.startsWith(':')) portText = rest.slice(1);
    let canonical: string;
    try {
      canonical = new URL(`http://[${host}]/`).hostname;
    } catch {
      fail(hostCode, `${what} is not a valid IPv6 address`);
    }
    host = canonical.slice(1, -1);
  } else {
    const colon = lower.indexOf(':');
    if (colon >= 0) {
      portText = lower.slice(colon + 1);
      host = lower.slice(0, colon);
    } else {
      host = lower;
    }
    if (!host) fail(hostCode, `${what} is empty before the port`);
    if (host.length > 253) fail(hostCode, `${what} is longer than 253 characters`);
    const labels = host.split('.');
    if (labels.some((l) => l === '')) fail(hostCode, `${what} has an empty label (two dots in a row, or a leading or trailing dot)`);
    if (!labels.every((l) => LABEL.test(l))) {
      fail(hostCode, `${what} may hold only letters, digits, '-' and '.' (labels of 1 to 63 characters, not starting or ending with '-')`);
    }
  }
  let port: number | undefined;
  if (portText !== undefined) {
    if (!PORT.test(portText)) fail(portCode, `${what} has an invalid port: it must be a number from 1 to 65535`);
    port = Number(portText);
    if (port < 1 || port > 65535) fail(portCode, `${what} has a port out of range: it must be from 1 to 65535`);
  }
  const bracketed = host.includes(':') ? `[${host}]` : host;
  const hostname = port === undefined ? bracketed : `${bracketed}:${port}`;
  return port === undefined ? { hostname, host } : { hostname, host, port };
}

interface Base {
  baseUrl: string;
  host: string;
  loopback: boolean;
}

function parseServerUrl(serverUrl: string): Base {
  const text = serverUrl.trim();
  if (!text) fail('server_url_invalid', 'Server URL is empty');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail('server_url_invalid', "Server URL is not a valid absolute URL (e.g. 'https://tenant.example.com')");
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    fail('server_url_scheme', 'Server URL must start with https:// (or http:// for a loopback host)');
  if (url.username || url.password) fail('server_url_credentials', 'Server URL must not carry a user name or password');
  if (url.search || url.hash || text.includes('?') || text.includes('#'))
    fail('server_url_query', 'Server URL must not carry a query string or fragment');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) fail('server_url_invalid', 'Server URL has no host');
  const loopback = isLoopbackHost(host);
  if (url.protocol === 'http:' && !loopback)
    fail(
      'server_url_insecure',
      'Server URL uses plain http, which is allowed only for loopback hosts (127.0.0.0/8, localhost, ::1); use https',
    );
  const path = url.pathname.replace(/\/+$/, '');
  if (
    path
      .split('/')
      .slice(1)
      .some((segment) => segment === '' || segment === '.' || segment === '..')
  ) {
    fail('server_url_path', 'Server URL path has an empty or dot segment');
  }
  return { baseUrl: `${url.protocol}//${url.host}${path}`, host, loopback };
}

/**
 * Parses a client id. The hostname gives `https://<hostname>/auth/v1/token` and
 * `https://<hostname>/api/v1` (http for loopback hosts); an explicit `serverUrl` overrides it.
 */
export function parseClientId(clientId: string, serverUrl?: string): ParsedClientId {
  if (typeof clientId !== 'string') fail('client_id_empty', `Client ID is missing: ${FORMAT_ID}`);
  const id = clientId.trim();
  if (!id) fail('client_id_empty', `Client ID is empty: ${FORMAT_ID}`);
  if (hasSpaceOrControl(id)) fail('client_id_whitespace', 'Client ID contains whitespace or control characters');
  const at = id.indexOf('@');
  if (at < 0) fail('client_id_missing_at', `Client ID has no '@': ${FORMAT_ID}`);
  if (id.indexOf('@', at + 1) >= 0) fail('client_id_multiple_at', `Client ID has more than one '@': ${FORMAT_ID}`);
  const randomId = id.slice(0, at);
  if (!randomId) fail('client_id_random_id_missing', `Client ID has nothing before '@': ${FORMAT_ID}`);
  if (!ID_PART.test(randomId) || randomId.includes('/')) {
    fail('client_id_random_id_invalid', "Client ID's random id (before '@') may hold only visible ASCII characters other than '/'");
  }
  const rest = id.slice(at + 1);
  const slash = rest.indexOf('/');
  if (slash < 0) fail('client_id_missing_use_case', `Client ID has no '/<use-case>' after the hostname: ${FORMAT_ID}`);
  const rawHost = rest.slice(0, slash);
  const useCase = rest.slice(slash + 1);
  if (!rawHost) fail('client_id_hostname_missing', `Client ID has no hostname between '@' and '/': ${FORMAT_ID}`);
  if (!useCase) fail('client_id_missing_use_case', `Client ID has an empty use-case after '/': ${FORMAT_ID}`);
  if (!ID_PART.test(useCase)) fail('client_id_use_case_invalid', "Client ID's use-case may hold only visible ASCII characters");
  const parts = parseHostPort(rawHost, 'client_id');

  let base: Base;
  if (serverUrl !== undefined && serverUrl !== '') {
    base = parseServerUrl(serverUrl);
  } else {
    const loopback = isLoopbackHost(parts.host);
    base = { baseUrl: `${loopback ? 'http' : 'https'}://${parts.hostname}`, host: parts.host, loopback };
  }
  const result: ParsedClientId = {
    clientId: id,
    randomId,
    hostname: parts.hostname,
    host: parts.host,
    useCase,
    baseUrl: base.baseUrl,
    tokenUrl: `${base.baseUrl}/auth/v1/token`,
    apiRoot: `${base.baseUrl}/api/v1`,
    audience: base.host,
    loopback: base.loopback,
  };
  if (parts.port !== undefined) result.port = parts.port;
  return Object.freeze(result);
}

const SECRET_PREFIX = 'secret-token:';
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
// DER prefix of a PKCS#8 Ed25519 private key (RFC 8410): the 32-byte seed follows.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function decodeBase64url(text: string): Buffer | null {
  if (!BASE64URL.test(text)) return null;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  return Buffer.from(bare, 'base64url');
}

function keyBytes(value: unknown): Buffer | null {
  if (typeof value !== 'string' || !value) return null;
  const bytes = decodeBase64url(value);
  return bytes && bytes.length === 32 ? bytes : null;
}

/**
 * Parses a client secret into its domain and a non-extractable Ed25519 signing key.
 * Leading and trailing whitespace (a newline from stdin) is ignored.
 */
export async function parseClientSecret(secret: string): Promise<ParsedClientSecret> {
  if (typeof secret !== 'string') fail('secret_empty', `Client secret is missing: ${FORMAT_SECRET}`);
  const text = secret.trim();
  if (!text) fail('secret_empty', `Client secret is empty: ${FORMAT_SECRET}`);
  if (!text.startsWith(SECRET_PREFIX)) {
    const hint = /^[^@\s]+@[^/\s]+\/\S+$/.test(text) ? ' (this looks like a client ID)' : '';
    fail('secret_prefix', `Client secret does not start with 'secret-token:'${hint}: ${FORMAT_SECRET}`);
  }
  const rest = text.slice(SECRET_PREFIX.length);
  const keyColon = rest.lastIndexOf(':');
  if (keyColon < 0) fail('secret_structure', `Client secret is incomplete (no ':' after the domain): ${FORMAT_SECRET}`);
  const head = rest.slice(0, keyColon);
  const payload = rest.slice(keyColon + 1);
  const versionColon = head.lastIndexOf(':');
  if (versionColon < 0 && /^v\d+$/i.test(head))
    fail('secret_domain_missing', `Client secret has no domain after 'secret-token:': ${FORMAT_SECRET}`);
  if (versionColon < 0) fail('secret_structure', `Client secret is incomplete (it needs a domain, a version and a key): ${FORMAT_SECRET}`);
  const domain = head.slice(0, versionColon);
  const version = head.slice(versionColon + 1);
  if (!domain) fail('secret_domain_missing', `Client secret has no domain after 'secret-token:': ${FORMAT_SECRET}`);
  if (hasSpaceOrControl(domain)) fail('secret_domain_invalid', 'Client secret domain contains whitespace or control characters');
  if (!version) fail('secret_version_missing', `Client secret has no version between the domain and the key: ${FORMAT_SECRET}`);
  if (version !== 'v1') fail('secret_version_unsupported', "Client secret has an unsupported version (only 'v1' is known)");
  if (!payload) fail('secret_key_missing', `Client secret has no key after ':v1:': ${FORMAT_SECRET}`);
  const decoded = decodeBase64url(payload);
  if (!decoded) fail('secret_key_base64', 'Client secret key is not valid base64url (A-Z, a-z, 0-9, - and _)');
  let jwk: unknown;
  try {
    jwk = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(decoded));
  } catch {
    // The parser's own message quotes the input: never pass it on.
    fail('secret_key_json', 'Client secret key does not decode to JSON');
  } finally {
    decoded.fill(0);
  }
  if (typeof jwk !== 'object' || jwk === null || Array.isArray(jwk))
    fail('secret_key_not_object', 'Client secret key is not a JSON object (a JWK)');
  const key = jwk as Record<string, unknown>;
  if (key.kty !== 'OKP') fail('secret_key_kty', "Client secret key is not an OKP key (JWK 'kty' must be 'OKP')");
  if (key.crv !== 'Ed25519') fail('secret_key_crv', "Client secret key is not an Ed25519 key (JWK 'crv' must be 'Ed25519')");
  if (key.alg !== undefined && key.alg !== 'EdDSA' && key.alg !== 'Ed25519')
    fail('secret_key_alg', "Client secret key has an 'alg' other than EdDSA");
  if (key.use !== undefined && key.use !== 'sig')
    fail('secret_key_use', "Client secret key is not a signing key (JWK 'use' must be 'sig')");
  if (key.d === undefined || key.d === null || key.d === '')
    fail('secret_key_public_only', "Client secret key is a public key: the private part ('d') is missing");
  const seed = keyBytes(key.d);
  if (!seed) fail('secret_key_d_invalid', "Client secret key's private part ('d') is not 32 bytes of base64url");
  let x: Buffer | null = null;
  if (key.x !== undefined) {
    x = keyBytes(key.x);
    if (!x) {
      seed.fill(0);
      fail('secret_key_x_invalid', "Client secret key's public part ('x') is not 32 bytes of base64url");
    }
  }
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, seed]);
  seed.fill(0);
  try {
    const derived = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({ format: 'jwk' });
    const publicX = String(derived.x);
    if (x && !x.equals(Buffer.from(publicX, 'base64url'))) {
      fail('secret_key_mismatch', "Client secret key's public part ('x') does not belong to its private part ('d')");
    }
    const privateKey = await webcrypto.subtle.importKey('pkcs8', der, { name: 'Ed25519' }, false, ['sign']);
    const result: ParsedClientSecret = { domain, privateKey, publicJwk: Object.freeze({ kty: 'OKP', crv: 'Ed25519', x: publicX }) };
    if (typeof key.kid === 'string' && key.kid) result.keyId = key.kid;
    return Object.freeze(result);
  } catch (error) {
    if (error instanceof CredentialError) throw error;
    fail('secret_key_d_invalid', "Client secret key's private part ('d') is not a valid Ed25519 key");
  } finally {
    der.fill(0);
  }
}
