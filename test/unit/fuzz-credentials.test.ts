/**
 * Fuzzing the credential parsers with a seeded generator: more than 10,000 client ids and secrets
 * that are malformed by construction, each of which must be refused with a CredentialError (never
 * another exception, never a crash, never a message holding key material), plus random mutations
 * of valid credentials that must either parse or be refused the same way.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CredentialError, parseClientId, parseClientSecret } from '../../src/main/api/credentials';

/** mulberry32: small, fast, seeded. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const chars = (alphabet: string, min: number, max: number) => {
    let s = '';
    const len = min + int(max - min + 1);
    for (let i = 0; i < len; i += 1) s += alphabet[int(alphabet.length)]!;
    return s;
  };
  const insertAt = (s: string, piece: string) => {
    const at = int(s.length + 1);
    return s.slice(0, at) + piece + s.slice(at);
  };
  return { next, int, pick, chars, insertAt };
}

const SEED = 20260601;
// Every code a client id or secret can fail with (server URL codes need a server URL).
const ALL_CODES = [
  'client_id_empty',
  'client_id_hostname_invalid',
  'client_id_hostname_missing',
  'client_id_missing_at',
  'client_id_missing_use_case',
  'client_id_multiple_at',
  'client_id_port_invalid',
  'client_id_random_id_invalid',
  'client_id_random_id_missing',
  'client_id_use_case_invalid',
  'client_id_whitespace',
  'secret_domain_invalid',
  'secret_domain_missing',
  'secret_empty',
  'secret_key_alg',
  'secret_key_base64',
  'secret_key_crv',
  'secret_key_d_invalid',
  'secret_key_json',
  'secret_key_kty',
  'secret_key_missing',
  'secret_key_mismatch',
  'secret_key_not_object',
  'secret_key_public_only',
  'secret_key_use',
  'secret_key_x_invalid',
  'secret_prefix',
  'secret_structure',
  'secret_version_missing',
  'secret_version_unsupported',
].sort();
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SPACES = [' ', '\t', '\n', '\r', '\u0000', '\u0007', '\u007f', '\u00a0', '\u2028', '\u3000'];
const BAD_HOST_CHARS = '_!$%&*()=+,;<>?{}|\\"\'`^~';

function validParts(r: ReturnType<typeof prng>) {
  const label = () => r.chars(ALNUM, 1, 12);
  const host = Array.from({ length: 1 + r.int(4) }, label).join('.');
  return { random: `${label()}-${label()}`, host, useCase: label() };
}

/** Client ids that are malformed by construction, one generator per kind of mistake. */
function badClientIds(r: ReturnType<typeof prng>, count: number): string[] {
  const gens: Array<() => string> = [
    () => '',
    () => r.chars(' \t\n', 1, 5),
    () => {
      const p = validParts(r);
      return `${p.random}${p.host}/${p.useCase}`; // no '@'
    },
    () => {
      const p = validParts(r);
      return `@${p.host}/${p.useCase}`;
    },
    () => {
      const p = validParts(r);
      return `${p.random}@${r.chars(ALNUM, 0, 5)}@${p.host}/${p.useCase}`;
    },
    () => {
      const p = validParts(r);
      return `${p.random}@${p.host}${r.pick(['', ':443'])}`; // no use-case
    },
    () => {
      const p = validParts(r);
      return `${p.random}@${p.host}/`;
    },
    () => {
      const p = validParts(r);
      return `${p.random}@/${p.useCase}`;
    },
    () => {
      const p = validParts(r);
      // Strictly inside: surrounding whitespace is trimmed (and allowed).
      const s = `${p.random}@${p.host}/${p.useCase}`;
      const at = 1 + r.int(s.length - 1);
      return s.slice(0, at) + r.pick(SPACES) + s.slice(at);
    },
    () => {
      const p = validParts(r);
      return `${p.random}@${r.insertAt(p.host, r.pick([...BAD_HOST_CHARS]))}/${p.useCase}`;
    },
    () => {
      const p = validParts(r);
      const port = r.pick(['', '0', '65536', '99999', '-1', '+80', 'http', '8o8o', '123456', '1.5', ':1']);
      return `${p.random}@${p.host}:${port}/${p.useCase}`;
    },
    () => {
      const p = validParts(r);
      const host = r.pick([
        `.${p.host}`,
        `${p.host}.`,
        r.insertAt(p.host, '..'),
        `${'a'.repeat(64 + r.int(10))}.example.com`,
        `-${p.host}`,
        `${p.host}-`,
        `${'abc.'.repeat(70)}com`,
      ]);
      return `${p.random}@${host}/${p.useCase}`;
    },
    () => {
      const p = validParts(r);
      return `${r.insertAt(p.random, r.pick(['é', 'ß', '😀', '/', 'ü']))}@${p.host}/${p.useCase}`;
    },
    () => {
      const p = validParts(r);
      return `${p.random}@${p.host}/${r.insertAt(p.useCase, r.pick(['é', '😀', 'ñ']))}`;
    },
    () => {
      const p = validParts(r);
      return `${p.random}@[${r.chars('0123456789abcdefgxyz:', 1, 12)}${r.pick([']', ''])}/${p.useCase}`;
    },
  ];
  return Array.from({ length: count }, (_, i) => gens[i % gens.length]!());
}

function makeJwk() {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ format: 'jwk' }) as { kty: string; crv: string; x: string; d: string };
}

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64url');
const secretOf = (payload: string, domain = 'tenant.example.com', version = 'v1') => `secret-token:${domain}:${version}:${payload}`;

/** Client secrets that are malformed by construction. */
function badSecrets(
  r: ReturnType<typeof prng>,
  count: number,
  jwk: ReturnType<typeof makeJwk>,
  other: ReturnType<typeof makeJwk>,
): string[] {
  const good = b64(JSON.stringify(jwk));
  const randomBytes = (n: number) => Buffer.from(Array.from({ length: n }, () => r.int(256)));
  const gens: Array<() => string> = [
    () => r.chars(' \n\t', 0, 3),
    () => {
      const prefix = r.pick([
        'secret-token',
        'secret_token:',
        'Secret-Token:',
        'secrettoken:',
        'token:',
        'secret-toke:',
        ' secret-token',
        'xsecret-token:',
      ]);
      return `${prefix}tenant.example.com:v1:${good}`.replace(/^ /, 'q');
    },
    () => 'secret-token:'.slice(0, 1 + r.int(12)) + r.chars(ALNUM, 0, 10),
    () => `secret-token:${r.chars(ALNUM, 0, 20)}`,
    () =>
      secretOf(good, 'tenant.example.com', r.pick(['', 'v0', 'v2', 'V1', 'v10', '1', 'v1.0', r.chars(ALNUM, 1, 4).replace(/^v1$/, 'v9')])),
    () => `secret-token::v1:${good}`,
    () => `secret-token:v1:${good}`,
    () => secretOf(good, r.insertAt('tenant.example.com', r.pick(SPACES.filter((s) => s.trim() === '' || s < ' ')))),
    () => secretOf(''),
    () => secretOf(r.insertAt(good, r.pick(['+', '/', '!', '.', '*', '%', '~', ' ', '=', '"', 'é', '\u0000']))).replace(/=$/, '=!'),
    () => secretOf(b64(randomBytes(1 + r.int(40))).slice(0, 4 * r.int(10) + 1)),
    () => secretOf(b64(r.pick(['not json', '{', '}', '{"kty":', 'undefined', 'NaN', "{'kty':'OKP'}", r.chars(ALNUM, 1, 30)]))),
    () => secretOf(b64(Buffer.concat([Buffer.from([0xff, 0xfe, 0xfd]), randomBytes(r.int(20))]))),
    () => secretOf(b64(r.pick(['null', 'true', 'false', '0', '42', '"str"', '[]', '[1,2,3]', `[${JSON.stringify(jwk)}]`]))),
    () => {
      const variants: object[] = [
        { ...jwk, kty: r.pick(['EC', 'RSA', 'oct', 'okp', '', 42, null]) },
        { ...jwk, crv: r.pick(['X25519', 'Ed448', 'P-256', 'ed25519', '', null]) },
        { ...jwk, alg: r.pick(['RS256', 'ES256', 'none', 'HS256']) },
        { ...jwk, use: r.pick(['enc', 'sign', '']) },
        { kty: 'OKP', crv: 'Ed25519', x: jwk.x },
        { ...jwk, d: r.pick(['', null]) },
        { ...jwk, d: b64(randomBytes(r.pick([0, 1, 16, 31, 33, 64]))).replace(/^$/, 'A') },
        { ...jwk, d: r.pick([42, true, {}, [], 'a+b/', '!!!!']) },
        { ...jwk, x: b64(randomBytes(r.pick([1, 16, 31, 33]))) },
        { ...jwk, x: r.pick([42, '', '+/+/', null]) },
        { ...jwk, x: other.x },
        { ...jwk, d: other.d },
      ];
      const { kty: _k, ...noKty } = jwk;
      const { crv: _c, ...noCrv } = jwk;
      variants.push(noKty, noCrv);
      return secretOf(b64(JSON.stringify(r.pick(variants))));
    },
    () => {
      const full = secretOf(good);
      // Cut strictly inside: a truncated secret is never whole (and never ends in whitespace only).
      return full.slice(0, 1 + r.int(full.length - 2)).trimEnd() || 'x';
    },
  ];
  return Array.from({ length: count }, (_, i) => gens[i % gens.length]!());
}

function checkError(error: unknown, forbidden: string[]): CredentialError {
  expect(error).toBeInstanceOf(CredentialError);
  const e = error as CredentialError;
  expect(typeof e.code).toBe('string');
  expect(e.message.length).toBeGreaterThan(0);
  for (const secret of forbidden) {
    if (secret.length >= 16 && e.message.includes(secret))
      throw new Error(`message holds key material: ${e.code} ${JSON.stringify(secret)}`);
  }
  return e;
}

describe('credential parsers under fuzzing', () => {
  it('refuses 12,000 malformed client ids and secrets, each with a CredentialError', async () => {
    const r = prng(SEED);
    const jwk = makeJwk();
    const other = makeJwk();
    const ids = badClientIds(r, 6000);
    const secrets = badSecrets(r, 6000, jwk, other);
    const codes = new Map<string, number>();
    let refused = 0;
    for (const id of ids) {
      let parsed: unknown;
      try {
        parsed = parseClientId(id);
      } catch (error) {
        const e = checkError(error, []);
        codes.set(e.code, (codes.get(e.code) ?? 0) + 1);
        refused += 1;
        continue;
      }
      throw new Error(`accepted a malformed client id: ${JSON.stringify(id)} -> ${JSON.stringify(parsed)}`);
    }
    for (const secret of secrets) {
      const payload = secret.split(':').at(-1) ?? '';
      try {
        await parseClientSecret(secret);
      } catch (error) {
        const e = checkError(error, [jwk.d, other.d, payload]);
        codes.set(e.code, (codes.get(e.code) ?? 0) + 1);
        refused += 1;
        continue;
      }
      throw new Error(`accepted a malformed secret (generator ${secrets.indexOf(secret) % 16})`);
    }
    expect(refused).toBe(12_000);
    // The generators reach every error code of both parsers.
    expect([...codes.keys()].sort()).toEqual(ALL_CODES);
  });

  it('random mutations of valid credentials either parse or fail with a CredentialError', async () => {
    const r = prng(SEED + 1);
    const jwk = makeJwk();
    const goodSecret = secretOf(b64(JSON.stringify(jwk)));
    const goodId = 'quiet-otter-42@tenant.example.com:8443/attest';
    const mutate = (s: string) => {
      const chars = [...s];
      const edits = 1 + r.int(3);
      for (let i = 0; i < edits; i += 1) {
        const at = r.int(chars.length + 1);
        const op = r.int(3);
        const ch = r.next() < 0.8 ? String.fromCharCode(32 + r.int(95)) : String.fromCodePoint(r.int(0x2ffff));
        if (op === 0) chars.splice(at, 0, ch);
        else if (op === 1) chars.splice(at, 1);
        else chars[at] = ch;
      }
      return chars.join('');
    };
    let parsed = 0;
    let refused = 0;
    for (let i = 0; i < 2000; i += 1) {
      const id = mutate(goodId);
      try {
        parseClientId(id);
        parsed += 1;
      } catch (error) {
        checkError(error, []);
        refused += 1;
      }
      const secret = mutate(goodSecret);
      try {
        const result = await parseClientSecret(secret);
        expect(JSON.stringify(result)).not.toContain(jwk.d);
        parsed += 1;
      } catch (error) {
        checkError(error, [jwk.d]);
        refused += 1;
      }
    }
    expect(parsed + refused).toBe(4000);
    expect(refused).toBeGreaterThan(1000);
  });
});
