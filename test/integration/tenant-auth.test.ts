/**
 * The reference tenant's authentication over real HTTP: both client-credentials flows, every rule
 * of the signed assertion broken once (each refused with the right OAuth error), and the bearer
 * check of the API.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { importJWK, SignJWT, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/main/api/client';
import { parseClientSecret } from '../../src/main/api/credentials';
import { assertStatus, readResult, startTestTenant, useTenant } from '../helpers/tenant';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const tenant = useTenant({ seed: 11 });

function privateJwkOf(secret: string) {
  return JSON.parse(Buffer.from(secret.split(':').pop() as string, 'base64url').toString('utf8')) as Record<string, string>;
}

interface AssertionOptions {
  claims?: JWTPayload;
  omit?: string[];
  key?: Record<string, string>;
  alg?: string;
  nonce?: string;
}

/** A client assertion as the spec describes it, with any claim overridden or left out. */
async function assertion(options: AssertionOptions = {}): Promise<string> {
  const t = tenant();
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = {
    iss: t.clientId,
    sub: t.clientId,
    aud: [t.domain],
    iat: now,
    nbf: now - 120,
    exp: now + 120,
    ...options.claims,
  };
  for (const name of options.omit ?? []) delete claims[name];
  const key = await importJWK(options.key ?? privateJwkOf(t.clientSecret), 'EdDSA');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'EdDSA', nonce: options.nonce ?? randomBytes(16).toString('hex') } as { alg: string })
    .sign(key);
}

function assertionForm(jwt: string, clientId = tenant().clientId): Record<string, string> {
  return { grant_type: 'client_credentials', client_id: clientId, client_assertion_type: ASSERTION_TYPE, client_assertion: jwt };
}

async function expectOAuthError(result: Promise<{ status: number; body: unknown }>, status: number, error: string, description?: RegExp) {
  const r = await result;
  expect(r.status).toBe(status);
  const body = r.body as { error: string; error_description: string };
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe('string');
  if (description) expect(body.error_description).toMatch(description);
}

describe('token endpoint: the two client-credentials flows', () => {
  it('issues a bearer token for the client secret in the form body', async () => {
    const t = tenant();
    const r = await t.tokenRequest({ grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const body = r.body as { access_token: string; token_type: string; expires_in: number };
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_in).toBe(3600);
    const api = await fetch(`${t.url}/api/v1/findings/routing-rules`, { headers: { Authorization: `Bearer ${body.access_token}` } });
    expect(api.status).toBe(200);
  });

  it('issues a bearer token for a signed client assertion (EdDSA, iss = sub = client id, aud = domain)', async () => {
    const t = tenant();
    const r = await t.tokenRequest(assertionForm(await assertion()));
    expect(r.status).toBe(200);
    const { access_token } = r.body as { access_token: string };
    const api = await fetch(`${t.url}/api/v1/access_reviews`, { headers: { Authorization: `Bearer ${access_token}` } });
    expect(api.status).toBe(200);
  });

  it('accepts aud as a plain string too', async () => {
    expect((await tenant().tokenRequest(assertionForm(await assertion({ claims: { aud: tenant().domain } })))).status).toBe(200);
  });

  it('credentials issued later work, with their own use case in the client id', async () => {
    const t = tenant();
    const extra = t.issueCredentials({ useCase: 'ci-export' });
    expect(extra.clientId).toMatch(new RegExp(`^[a-z0-9]+@127\\.0\\.0\\.1:\\d+/ci-export$`));
    // As the real service: the vendor's fixed domain, not the tenant's host.
    expect(extra.clientSecret.startsWith('secret-token:conductorone.com:v1:')).toBe(true);
    const jwk = privateJwkOf(extra.clientSecret);
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
    expect(typeof jwk.d).toBe('string');
    const r = await t.tokenRequest({ grant_type: 'client_credentials', client_id: extra.clientId, client_secret: extra.clientSecret });
    expect(r.status).toBe(200);
    // One client's secret does not open another client.
    await expectOAuthError(
      t.tokenRequest({ grant_type: 'client_credentials', client_id: extra.clientId, client_secret: t.clientSecret }),
      401,
      'invalid_client',
    );
  });
});

describe('client secrets as the real service issues them', () => {
  it('carry the vendor domain whatever the host, read as the vendor clients and Attest read them, and work with aud = the host', async () => {
    const t = await startTestTenant({ seed: 4, host: 'localhost' });
    try {
      for (const secret of [t.clientSecret, t.issueCredentials({ useCase: 'ci' }).clientSecret]) {
        // The vendor's clients split on ':' into exactly four parts, refuse any domain but theirs
        // and any version but v1, and decode the key as unpadded base64url.
        const parts = secret.split(':');
        expect(parts).toHaveLength(4);
        expect(parts.slice(0, 3)).toEqual(['secret-token', 'conductorone.com', 'v1']);
        expect(parts[3]).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(privateJwkOf(secret)).toMatchObject({ kty: 'OKP', crv: 'Ed25519' });
        expect(secret).not.toContain('localhost');
        expect((await parseClientSecret(secret)).domain).toBe('conductorone.com');
      }
      // The audience is the client id's host (no port), not the secret's domain.
      expect(t.domain).toBe('localhost');
      expect(t.clientId).toMatch(/@localhost:\d+\/attest$/);
      for (const auth of ['assertion', 'secret'] as const) {
        const api = createApiClient({ clientId: t.clientId, clientSecret: t.clientSecret, auth, maxRetries: 0 });
        expect(await api.getToken()).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      }
      const aud = 'conductorone.com';
      const now = Math.floor(Date.now() / 1000);
      const key = await importJWK(privateJwkOf(t.clientSecret), 'EdDSA');
      const jwt = await new SignJWT({ iss: t.clientId, sub: t.clientId, aud, iat: now, exp: now + 60 })
        .setProtectedHeader({ alg: 'EdDSA' })
        .sign(key);
      const refused = await t.tokenRequest({
        grant_type: 'client_credentials',
        client_id: t.clientId,
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: jwt,
      });
      expect(refused.status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('token endpoint: each assertion rule broken once is refused', () => {
  it('signature by another key -> 401 invalid_client', async () => {
    const other = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' }) as Record<string, string>;
    await expectOAuthError(tenant().tokenRequest(assertionForm(await assertion({ key: other }))), 401, 'invalid_client', /signature/);
  });

  it('iss other than the client id -> 401 invalid_client', async () => {
    await expectOAuthError(
      tenant().tokenRequest(assertionForm(await assertion({ claims: { iss: 'someone-else@127.0.0.1/attest' } }))),
      401,
      'invalid_client',
      /iss/,
    );
  });

  it('sub other than the client id -> 401 invalid_client', async () => {
    await expectOAuthError(
      tenant().tokenRequest(assertionForm(await assertion({ claims: { sub: 'someone-else' } }))),
      401,
      'invalid_client',
      /sub/,
    );
  });

  it('aud other than the tenant domain (for example with the port) -> 401 invalid_client', async () => {
    const host = new URL(tenant().url).host;
    await expectOAuthError(
      tenant().tokenRequest(assertionForm(await assertion({ claims: { aud: [host] } }))),
      401,
      'invalid_client',
      /aud/,
    );
    await expectOAuthError(
      tenant().tokenRequest(assertionForm(await assertion({ claims: { aud: ['tenant.example.com'] } }))),
      401,
      'invalid_client',
      /aud/,
    );
  });

  it('a nonce that is not 32 hex digits (as the vendor clients send it) -> 401 invalid_client', async () => {
    for (const nonce of [randomBytes(16).toString('base64url'), crypto.randomUUID(), 'ABCDEF0123456789ABCDEF0123456789', '']) {
      await expectOAuthError(tenant().tokenRequest(assertionForm(await assertion({ nonce }))), 401, 'invalid_client', /nonce of 32/);
    }
    expect((await tenant().tokenRequest(assertionForm(await assertion({ nonce: 'a'.repeat(32) })))).status).toBe(200);
  });

  it('no exp -> 401 invalid_client (never-expiring assertions are not allowed)', async () => {
    await expectOAuthError(tenant().tokenRequest(assertionForm(await assertion({ omit: ['exp'] }))), 401, 'invalid_client', /exp/);
  });

  it('exp in the past -> 401 invalid_client', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectOAuthError(
      tenant().tokenRequest(assertionForm(await assertion({ claims: { exp: now - 120, nbf: now - 300, iat: now - 300 } }))),
      401,
      'invalid_client',
      /expired/,
    );
  });

  it('exp more than five minutes ahead -> 401 invalid_client; just under five minutes is fine', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectOAuthError(
      tenant().tokenRequest(assertionForm(await assertion({ claims: { exp: now + 3600 } }))),
      401,
      'invalid_client',
      /five minutes/,
    );
    expect((await tenant().tokenRequest(assertionForm(await assertion({ claims: { exp: now + 290 } })))).status).toBe(200);
  });

  it('nbf in the future -> 401 invalid_client', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectOAuthError(
      tenant().tokenRequest(assertionForm(await assertion({ claims: { nbf: now + 200 } }))),
      401,
      'invalid_client',
      /nbf/,
    );
  });

  it('iat in the future -> 401 invalid_client', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectOAuthError(
      tenant().tokenRequest(assertionForm(await assertion({ claims: { iat: now + 200 } }))),
      401,
      'invalid_client',
      /iat/,
    );
  });

  it('a JWS that is not EdDSA -> 401 invalid_client', async () => {
    const t = tenant();
    const now = Math.floor(Date.now() / 1000);
    const hs = await new SignJWT({ iss: t.clientId, sub: t.clientId, aud: t.domain, exp: now + 60 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
    await expectOAuthError(t.tokenRequest(assertionForm(hs)), 401, 'invalid_client', /EdDSA/);
  });

  it('a client assertion that is not a JWT -> 401 invalid_client', async () => {
    await expectOAuthError(tenant().tokenRequest(assertionForm('not.a.jwt')), 401, 'invalid_client');
  });

  it('credentials in the Authorization header -> 400 invalid_request, even when they are right', async () => {
    const t = tenant();
    const basic = `Basic ${Buffer.from(`${encodeURIComponent(t.clientId)}:${encodeURIComponent(t.clientSecret)}`).toString('base64')}`;
    await expectOAuthError(t.tokenRequest({ grant_type: 'client_credentials' }, { Authorization: basic }), 400, 'invalid_request', /body/);
    await expectOAuthError(
      t.tokenRequest({ grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret }, { Authorization: basic }),
      400,
      'invalid_request',
      /header/,
    );
  });

  it('a grant type other than client_credentials -> 400 unsupported_grant_type', async () => {
    const t = tenant();
    await expectOAuthError(
      t.tokenRequest({ grant_type: 'password', client_id: t.clientId, client_secret: t.clientSecret }),
      400,
      'unsupported_grant_type',
    );
  });

  it('an unknown client -> 401 invalid_client, in both flows', async () => {
    const t = tenant();
    await expectOAuthError(
      t.tokenRequest({ grant_type: 'client_credentials', client_id: 'nobody@127.0.0.1/attest', client_secret: t.clientSecret }),
      401,
      'invalid_client',
      /unknown client/,
    );
    await expectOAuthError(
      t.tokenRequest(assertionForm(await assertion(), 'nobody@127.0.0.1/attest')),
      401,
      'invalid_client',
      /unknown client/,
    );
  });

  it('a wrong client secret -> 401 invalid_client', async () => {
    const t = tenant();
    await expectOAuthError(
      t.tokenRequest({ grant_type: 'client_credentials', client_id: t.clientId, client_secret: `${t.clientSecret}x` }),
      401,
      'invalid_client',
    );
  });

  it('malformed token requests -> 400 invalid_request (or 405 for GET)', async () => {
    const t = tenant();
    await expectOAuthError(t.tokenRequest({ client_id: t.clientId, client_secret: t.clientSecret }), 400, 'invalid_request', /grant_type/);
    await expectOAuthError(
      t.tokenRequest({ grant_type: 'client_credentials', client_secret: t.clientSecret }),
      400,
      'invalid_request',
      /client_id/,
    );
    await expectOAuthError(
      t.tokenRequest({ grant_type: 'client_credentials', client_id: t.clientId }),
      400,
      'invalid_request',
      /client_secret or client_assertion/,
    );
    await expectOAuthError(
      t.tokenRequest({ ...assertionForm(await assertion()), client_secret: t.clientSecret }),
      400,
      'invalid_request',
      /not both/,
    );
    await expectOAuthError(
      t.tokenRequest({ ...assertionForm(await assertion()), client_assertion_type: 'urn:example:saml' }),
      400,
      'invalid_request',
      /client_assertion_type/,
    );
    const json = await fetch(`${t.url}/auth/v1/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: t.clientId, client_secret: t.clientSecret }),
    });
    await expectOAuthError(readResult(json), 400, 'invalid_request', /form/);
    const repeated = await fetch(`${t.url}/auth/v1/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=${encodeURIComponent(t.clientId)}&client_id=other&client_secret=x`,
    });
    await expectOAuthError(readResult(repeated), 400, 'invalid_request', /repeated/);
    const get = await fetch(`${t.url}/auth/v1/token`);
    expect(get.status).toBe(405);
  });
});

describe('bearer check of /api/v1 and /_tenant', () => {
  it('no Authorization header -> 401 UNAUTHENTICATED google.rpc.Status', async () => {
    const r = await readResult(await fetch(`${tenant().url}/api/v1/access_reviews`));
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    assertStatus(r.body, 16);
  });

  it('an unknown token, or a header that is not Bearer -> 401', async () => {
    const t = tenant();
    for (const header of ['Bearer not-a-token', `Basic ${Buffer.from('a:b').toString('base64')}`, 'Bearer']) {
      const r = await readResult(await fetch(`${t.url}/api/v1/access_reviews`, { headers: { Authorization: header } }));
      expect(r.status).toBe(401);
      assertStatus(r.body, 16);
    }
  });

  it('the journal needs a bearer token too', async () => {
    const t = tenant();
    const r = await readResult(await fetch(`${t.url}/_tenant/journal`));
    expect(r.status).toBe(401);
    assertStatus(r.body, 16);
    expect((await t.call('GET', '/_tenant/journal')).status).toBe(200);
  });

  it('an expired token -> 401; a fresh one works again', async () => {
    const short = await startTestTenant({ seed: 11, tokenTtlSeconds: 1 });
    try {
      const r = await short.tokenRequest({
        grant_type: 'client_credentials',
        client_id: short.clientId,
        client_secret: short.clientSecret,
      });
      const { access_token, expires_in } = r.body as { access_token: string; expires_in: number };
      expect(expires_in).toBe(1);
      const headers = { Authorization: `Bearer ${access_token}` };
      expect((await fetch(`${short.url}/api/v1/access_reviews`, { headers })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const expired = await readResult(await fetch(`${short.url}/api/v1/access_reviews`, { headers }));
      expect(expired.status).toBe(401);
      assertStatus(expired.body, 16);
      expect((expired.body as { message: string }).message).toMatch(/expired/);
      const again = await short.tokenRequest({
        grant_type: 'client_credentials',
        client_id: short.clientId,
        client_secret: short.clientSecret,
      });
      expect(
        (
          await fetch(`${short.url}/api/v1/access_reviews`, {
            headers: { Authorization: `Bearer ${(again.body as { access_token: string }).access_token}` },
          })
        ).status,
      ).toBe(200);
    } finally {
      await short.close();
    }
  });
});
