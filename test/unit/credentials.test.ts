import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CredentialError,
  isLoopbackHost,
  parseClientId,
  parseClientSecret,
  type CredentialErrorCode,
} from '../../src/main/api/credentials';
import { makeSecret, testCredentials } from '../helpers/api-credentials';

function idError(clientId: string, serverUrl?: string): CredentialError {
  try {
    parseClientId(clientId, serverUrl);
  } catch (error) {
    expect(error).toBeInstanceOf(CredentialError);
    return error as CredentialError;
  }
  throw new Error(`parsed without error: ${clientId}`);
}

async function secretError(secret: string): Promise<CredentialError> {
  try {
    await parseClientSecret(secret);
  } catch (error) {
    expect(error).toBeInstanceOf(CredentialError);
    return error as CredentialError;
  }
  throw new Error('parsed without error');
}

describe('parseClientId', () => {
  it('derives https token URL, API root and audience from the hostname', () => {
    const id = parseClientId('quiet-otter-42@Tenant.Example.com/attest');
    expect(id).toMatchObject({
      clientId: 'quiet-otter-42@Tenant.Example.com/attest',
      randomId: 'quiet-otter-42',
      hostname: 'tenant.example.com',
      host: 'tenant.example.com',
      useCase: 'attest',
      baseUrl: 'https://tenant.example.com',
      tokenUrl: 'https://tenant.example.com/auth/v1/token',
      apiRoot: 'https://tenant.example.com/api/v1',
      audience: 'tenant.example.com',
      loopback: false,
    });
    expect(id.port).toBeUndefined();
  });

  it('keeps a port in the URLs but not in the audience', () => {
    const id = parseClientId('a@tenant.example.com:8443/x/y');
    expect(id.hostname).toBe('tenant.example.com:8443');
    expect(id.host).toBe('tenant.example.com');
    expect(id.port).toBe(8443);
    expect(id.useCase).toBe('x/y');
    expect(id.tokenUrl).toBe('https://tenant.example.com:8443/auth/v1/token');
    expect(id.audience).toBe('tenant.example.com');
  });

  it('uses plain http only for loopback hosts', () => {
    expect(parseClientId('a@127.0.0.1:5000/attest').apiRoot).toBe('http://127.0.0.1:5000/api/v1');
    expect(parseClientId('a@127.9.8.7/attest').loopback).toBe(true);
    expect(parseClientId('a@localhost:3000/attest').tokenUrl).toBe('http://localhost:3000/auth/v1/token');
    const v6 = parseClientId('a@[::1]:8080/attest');
    expect(v6.apiRoot).toBe('http://[::1]:8080/api/v1');
    expect(v6.audience).toBe('::1');
    expect(parseClientId('a@128.0.0.1/attest').apiRoot).toBe('https://128.0.0.1/api/v1');
    expect(parseClientId('a@localhost.example.com/attest').loopback).toBe(false);
  });

  it('trims surrounding whitespace', () => {
    expect(parseClientId('  a@tenant.example.com/attest\n').clientId).toBe('a@tenant.example.com/attest');
  });

  it('lets an explicit server URL override the hostname', () => {
    const id = parseClientId('a@tenant.example.com/attest', 'https://proxy.example.org:9443/');
    expect(id.tokenUrl).toBe('https://proxy.example.org:9443/auth/v1/token');
    expect(id.apiRoot).toBe('https://proxy.example.org:9443/api/v1');
    expect(id.audience).toBe('proxy.example.org');
    expect(id.hostname).toBe('tenant.example.com');
    expect(parseClientId('a@tenant.example.com/attest', 'http://127.0.0.1:4000').apiRoot).toBe('http://127.0.0.1:4000/api/v1');
    expect(parseClientId('a@tenant.example.com/attest', 'https://gw.example.org/tenant-a/').apiRoot).toBe(
      'https://gw.example.org/tenant-a/api/v1',
    );
  });

  const bad: Array<[string, CredentialErrorCode, string?]> = [
    ['', 'client_id_empty'],
    ['   ', 'client_id_empty'],
    ['a b@tenant.example.com/attest', 'client_id_whitespace'],
    ['a@tenant.example.com/at\ttest', 'client_id_whitespace'],
    ['tenant.example.com/attest', 'client_id_missing_at'],
    ['a@b@tenant.example.com/attest', 'client_id_multiple_at'],
    ['@tenant.example.com/attest', 'client_id_random_id_missing'],
    ['a/b@tenant.example.com/attest', 'client_id_random_id_invalid'],
    ['é@tenant.example.com/attest', 'client_id_random_id_invalid'],
    ['a@tenant.example.com', 'client_id_missing_use_case'],
    ['a@tenant.example.com/', 'client_id_missing_use_case'],
    ['a@tenant.example.com/usé', 'client_id_use_case_invalid'],
    ['a@/attest', 'client_id_hostname_missing'],
    ['a@tenant..example.com/attest', 'client_id_hostname_invalid'],
    ['a@.tenant.example.com/attest', 'client_id_hostname_invalid'],
    ['a@tenant_x.example.com/attest', 'client_id_hostname_invalid'],
    ['a@-tenant.example.com/attest', 'client_id_hostname_invalid'],
    ['a@:8443/attest', 'client_id_hostname_invalid'],
    ['a@[::1/attest', 'client_id_hostname_invalid'],
    ['a@[zz::1]/attest', 'client_id_hostname_invalid'],
    ['a@tenant.example.com:/attest', 'client_id_port_invalid'],
    ['a@tenant.example.com:abc/attest', 'client_id_port_invalid'],
    ['a@tenant.example.com:0/attest', 'client_id_port_invalid'],
    ['a@tenant.example.com:65536/attest', 'client_id_port_invalid'],
    ['a@tenant.example.com:1:2/attest', 'client_id_port_invalid'],
    ['a@tenant.example.com/attest', 'server_url_invalid', 'not a url'],
    ['a@tenant.example.com/attest', 'server_url_scheme', 'ftp://tenant.example.com'],
    ['a@tenant.example.com/attest', 'server_url_insecure', 'http://tenant.example.com'],
    ['a@tenant.example.com/attest', 'server_url_credentials', 'https://u:p@tenant.example.com'],
    ['a@tenant.example.com/attest', 'server_url_query', 'https://tenant.example.com/?x=1'],
    ['a@tenant.example.com/attest', 'server_url_query', 'https://tenant.example.com/#top'],
    ['a@tenant.example.com/attest', 'server_url_path', 'https://tenant.example.com/a//b'],
  ];

  it.each(bad)('refuses %j with its own code %s', (clientId, code, serverUrl) => {
    const error = idError(clientId, serverUrl);
    expect(error.code).toBe(code);
    expect(error.part).toBe(code.startsWith('server_url') ? 'server_url' : 'client_id');
    expect(error.message.length).toBeGreaterThan(10);
  });

  it('gives every failure kind its own message', () => {
    const messages = new Map<string, Set<string>>();
    for (const [clientId, code, serverUrl] of bad) {
      const set = messages.get(code) ?? new Set<string>();
      set.add(idError(clientId, serverUrl).message);
      messages.set(code, set);
    }
    const all = [...messages.entries()];
    for (const [code, set] of all) {
      for (const [other, otherSet] of all) {
        if (other === code) continue;
        for (const message of set) expect(otherSet.has(message), `${code} and ${other} share "${message}"`).toBe(false);
      }
    }
  });
});

describe('isLoopbackHost', () => {
  it('knows 127.0.0.0/8, localhost and ::1', () => {
    for (const host of ['127.0.0.1', '127.255.255.254', 'localhost', 'LOCALHOST', 'app.localhost', '::1', '0:0:0:0:0:0:0:1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['128.0.0.1', '127.0.0.256', '10.0.0.1', 'example.com', '::2', '127.0.0', 'localhost.example'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('parseClientSecret', () => {
  it('reads the domain and a non-extractable Ed25519 key that signs', async () => {
    const creds = testCredentials();
    const parsed = await parseClientSecret(`${creds.clientSecret}\n`);
    expect(parsed.domain).toBe('tenant.example.com');
    expect(parsed.publicJwk).toEqual({ kty: 'OKP', crv: 'Ed25519', x: creds.jwk.x });
    expect(parsed.privateKey.extractable).toBe(false);
    expect(parsed.privateKey.algorithm.name).toBe('Ed25519');
    await expect(webcrypto.subtle.exportKey('jwk', parsed.privateKey)).rejects.toThrow();
    const data = new TextEncoder().encode('hello');
    const signature = await webcrypto.subtle.sign('Ed25519', parsed.privateKey, data);
    const publicKey = await webcrypto.subtle.importKey('jwk', parsed.publicJwk, 'Ed25519', false, ['verify']);
    expect(await webcrypto.subtle.verify('Ed25519', publicKey, signature, data)).toBe(true);
  });

  it('keeps neither the secret nor d on the result', async () => {
    const creds = testCredentials();
    const parsed = await parseClientSecret(creds.clientSecret);
    const dump = JSON.stringify(parsed) + Object.values(parsed).map(String).join('|') + JSON.stringify(Object.getOwnPropertyNames(parsed));
    expect(dump).not.toContain(creds.jwk.d);
    expect(dump).not.toContain(creds.clientSecret.split(':v1:')[1]);
    expect(Object.keys(parsed).sort()).toEqual(['domain', 'privateKey', 'publicJwk']);
  });

  it('accepts any domain, a key without x, a kid, alg and use', async () => {
    const { jwk } = testCredentials();
    const { x: _x, ...noX } = jwk;
    const parsed = await parseClientSecret(makeSecret({ ...noX, kid: 'k1', alg: 'EdDSA', use: 'sig' }, 'anything.at.all'));
    expect(parsed.domain).toBe('anything.at.all');
    expect(parsed.publicJwk.x).toBe(jwk.x);
    expect(parsed.keyId).toBe('k1');
    // A domain with a port (colons) still parses: the version and key are the last two parts.
    expect((await parseClientSecret(makeSecret(jwk, '127.0.0.1:8443'))).domain).toBe('127.0.0.1:8443');
  });

  it('refuses every malformed part with its own code and message', async () => {
    const { jwk, clientSecret } = testCredentials();
    const other = testCredentials().jwk;
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const cases: Array<[string, CredentialErrorCode]> = [
      ['', 'secret_empty'],
      [' \n ', 'secret_empty'],
      ['token:tenant.example.com:v1:abc', 'secret_prefix'],
      ['quiet-otter-42@tenant.example.com/attest', 'secret_prefix'],
      ['SECRET-TOKEN:tenant.example.com:v1:abc', 'secret_prefix'],
      ['secret-token:', 'secret_structure'],
      ['secret-token:tenant.example.com', 'secret_structure'],
      ['secret-token:v1:abc', 'secret_domain_missing'],
      [`secret-token::v1:${b64(JSON.stringify(jwk))}`, 'secret_domain_missing'],
      [`secret-token:ten ant:v1:${b64(JSON.stringify(jwk))}`, 'secret_domain_invalid'],
      [`secret-token:tenant.example.com::${b64(JSON.stringify(jwk))}`, 'secret_version_missing'],
      [makeSecret(jwk, 'tenant.example.com', 'v2'), 'secret_version_unsupported'],
      [makeSecret(jwk, 'tenant.example.com', 'V1'), 'secret_version_unsupported'],
      ['secret-token:tenant.example.com:v1:', 'secret_key_missing'],
      ['secret-token:tenant.example.com:v1:abc+def', 'secret_key_base64'],
      ['secret-token:tenant.example.com:v1:abc/def', 'secret_key_base64'],
      ['secret-token:tenant.example.com:v1:a', 'secret_key_base64'],
      ['secret-token:tenant.example.com:v1:ab cd', 'secret_key_base64'],
      [`secret-token:tenant.example.com:v1:${b64('not json')}`, 'secret_key_json'],
      [`secret-token:tenant.example.com:v1:${Buffer.from([0xff, 0xfe, 0x7b]).toString('base64url')}`, 'secret_key_json'],
      [`secret-token:tenant.example.com:v1:${b64('[1,2]')}`, 'secret_key_not_object'],
      [`secret-token:tenant.example.com:v1:${b64('"str"')}`, 'secret_key_not_object'],
      [`secret-token:tenant.example.com:v1:${b64('null')}`, 'secret_key_not_object'],
      [makeSecret({ ...jwk, kty: 'EC' }), 'secret_key_kty'],
      [makeSecret({ kty: 'RSA', n: 'abc', e: 'AQAB' }), 'secret_key_kty'],
      [makeSecret({ ...jwk, crv: 'X25519' }), 'secret_key_crv'],
      [makeSecret({ ...jwk, crv: 'Ed448' }), 'secret_key_crv'],
      [makeSecret({ ...jwk, alg: 'RS256' }), 'secret_key_alg'],
      [makeSecret({ ...jwk, use: 'enc' }), 'secret_key_use'],
      [makeSecret({ kty: 'OKP', crv: 'Ed25519', x: jwk.x }), 'secret_key_public_only'],
      [makeSecret({ ...jwk, d: '' }), 'secret_key_public_only'],
      [makeSecret({ ...jwk, d: 'abc' }), 'secret_key_d_invalid'],
      [makeSecret({ ...jwk, d: 42 }), 'secret_key_d_invalid'],
      [makeSecret({ ...jwk, d: `${jwk.d}AA` }), 'secret_key_d_invalid'],
      [makeSecret({ ...jwk, d: 'a+b/' }), 'secret_key_d_invalid'],
      [makeSecret({ ...jwk, x: 'short' }), 'secret_key_x_invalid'],
      [makeSecret({ ...jwk, x: other.x }), 'secret_key_mismatch'],
    ];
    const byCode = new Map<string, Set<string>>();
    for (const [secret, code] of cases) {
      const error = await secretError(secret);
      expect(error.code, secret).toBe(code);
      expect(error.part).toBe('client_secret');
      for (const text of [error.message, String(error.stack), JSON.stringify(error)]) {
        expect(text).not.toContain(jwk.d);
        expect(text).not.toContain(other.x);
        const payload = secret.split(':').at(-1)!;
        if (payload.length > 6) expect(text).not.toContain(payload);
      }
      expect(error.cause).toBeUndefined();
      byCode.set(code, (byCode.get(code) ?? new Set()).add(error.message));
    }
    // Different problems never share a message.
    const seen = new Map<string, string>();
    for (const [code, messages] of byCode) {
      for (const message of messages) {
        expect(seen.get(message) ?? code, message).toBe(code);
        seen.set(message, code);
      }
    }
    expect(clientSecret.startsWith('secret-token:')).toBe(true);
  });
});
