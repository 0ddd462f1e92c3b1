/**
 * Authentication of the reference tenant (spec "Authentication"): API credentials, the token
 * endpoint with its two client-credentials flows, and the bearer check of every API call.
 *
 * A credential is a client id `<random-id>@<host:port>/<use-case>` and a client secret
 * `secret-token:conductorone.com:v1:<base64url JWK>` holding a fresh Ed25519 private key; the tenant
 * keeps only the public half and the secret's digest. As the real service, the secret carries the
 * vendor's fixed domain whatever the tenant's host (the vendor's own clients refuse any other);
 * the tenant's host is the assertions' audience, taken from the client id. The signed-assertion flow is checked with jose:
 * EdDSA by the client's key, iss = sub = client id, aud = the tenant domain, exp present, in the
 * future and at most five minutes ahead, nbf and iat not in the future (small skew allowed), and a
 * `nonce` header of 32 hex digits, as the vendor's clients send it.
 */
import { createHash, generateKeyPairSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { errors as joseErrors, jwtVerify } from 'jose';
import { CLIENT_ASSERTION_TYPE, type OAuthError, type TokenResponse } from '../shared/api-types/common';
import { unauthenticated } from './errors';
import type { Faults } from './faults';

/** The second segment of every client secret the real service issues. */
export const SECRET_DOMAIN = 'conductorone.com';

/** Clock skew tolerated on exp, nbf and iat. */
export const CLOCK_SKEW_SECONDS = 30;
/** The spec: `exp` within five minutes of the current time. */
export const MAX_ASSERTION_LIFETIME_SECONDS = 300;

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

interface Client {
  clientId: string;
  publicKey: KeyObject;
  secretDigest: Buffer;
}

interface AccessToken {
  clientId: string;
  expiresAt: number;
  /** Fault `tokenExpireEarly`: the token dies after its first API request. */
  early: boolean;
  uses: number;
}

/** Who made an API call. */
export interface Principal {
  clientId: string;
}

export interface TokenAnswer {
  status: number;
  body: TokenResponse | OAuthError;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function oauthError(status: number, error: string, description: string): TokenAnswer {
  return { status, body: { error, error_description: description } };
}

export class Auth {
  private clients = new Map<string, Client>();
  private tokens = new Map<string, AccessToken>();
  private issued = 0;

  constructor(private readonly options: { domain: string; tokenTtlSeconds: number; faults: Faults; hostPort: () => string }) {}

  /** A new API credential, as the service's API settings page would create one. */
  issueCredentials(useCase = 'attest'): Credentials {
    if (!/^[A-Za-z0-9._-]+$/.test(useCase)) throw new Error(`use case '${useCase}' may hold only letters, digits, '.', '_' and '-'`);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const jwk = privateKey.export({ format: 'jwk' });
    const clientId = `${randomBytes(8).toString('hex')}@${this.options.hostPort()}/${useCase}`;
    const clientSecret = `secret-token:${SECRET_DOMAIN}:v1:${Buffer.from(JSON.stringify(jwk)).toString('base64url')}`;
    this.clients.set(clientId, { clientId, publicKey, secretDigest: digest(clientSecret) });
    return { clientId, clientSecret };
  }

  /** POST /auth/v1/token. `headers` are the request's; `contentType` and `body` its form. */
  async token(headers: Record<string, string | string[] | undefined>, body: string): Promise<TokenAnswer> {
    if (headers.authorization !== undefined) {
      return oauthError(400, 'invalid_request', 'client credentials must be sent in the request body, not in the Authorization header');
    }
    const contentType = String(headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase();
    if (contentType !== 'application/x-www-form-urlencoded') {
      return oauthError(400, 'invalid_request', 'the token endpoint takes an application/x-www-form-urlencoded body');
    }
    const form = new URLSearchParams(body);
    for (const name of new Set(form.keys())) {
      if (form.getAll(name).length > 1) return oauthError(400, 'invalid_request', `form field ${name} is repeated`);
    }
    const grantType = form.get('grant_type');
    if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is missing');
    if (grantType !== 'client_credentials')
      return oauthError(400, 'unsupported_grant_type', `grant_type '${grantType}' is not supported; use client_credentials`);
    const clientId = form.get('client_id');
    if (!clientId) return oauthError(400, 'invalid_request', 'client_id is missing');
    const secret = form.get('client_secret');
    const assertion = form.get('client_assertion');
    const assertionType = form.get('client_assertion_type');
    if (secret !== null && (assertion !== null || assertionType !== null)) {
      return oauthError(400, 'invalid_request', 'send either client_secret or client_assertion, not both');
    }
    if (secret === null && assertion === null) return oauthError(400, 'invalid_request', 'client_secret or client_assertion is required');
    if (assertion !== null && assertionType !== CLIENT_ASSERTION_TYPE) {
      return oauthError(400, 'invalid_request', `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`);
    }
    const client = this.clients.get(clientId);
    if (!client) return oauthError(401, 'invalid_client', 'unknown client');

    if (secret !== null) {
      if (!timingSafeEqual(digest(secret), client.secretDigest)) return oauthError(401, 'invalid_client', 'client authentication failed');
    } else {
      const problem = await this.checkAssertion(client, assertion ?? '');
      if (problem) return oauthError(401, 'invalid_client', problem);
    }
    return { status: 200, body: this.mint(client.clientId) };
  }

  /** Why a client assertion is refused, or null when it is good. */
  private async checkAssertion(client: Client, assertion: string): Promise<string | null> {
    let payload;
    let protectedHeader;
    try {
      ({ payload, protectedHeader } = await jwtVerify(assertion, client.publicKey, {
        algorithms: ['EdDSA', 'Ed25519'],
        issuer: client.clientId,
        subject: client.clientId,
        audience: this.options.domain,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) return 'client assertion has expired (exp is in the past)';
      if (error instanceof joseErrors.JWTClaimValidationFailed) {
        const { claim, reason } = error;
        if (reason === 'missing') return `client assertion has no ${claim} claim`;
        if (claim === 'iss') return 'client assertion iss must be the client id';
        if (claim === 'sub') return 'client assertion sub must be the client id';
        if (claim === 'aud') return `client assertion aud must be the tenant domain '${this.options.domain}'`;
        if (claim === 'nbf') return 'client assertion is not valid yet (nbf is in the future)';
        return `client assertion claim ${claim} is invalid`;
      }
      if (error instanceof joseErrors.JWSSignatureVerificationFailed)
        return 'client assertion signature does not verify with the client key';
      if (error instanceof joseErrors.JOSEAlgNotAllowed) return 'client assertion must be signed with EdDSA (Ed25519)';
      return 'client assertion is not a valid signed JWT';
    }
    // The vendor's clients send a nonce of 32 hex digits (16 random bytes); a server may check its form.
    if (typeof protectedHeader.nonce !== 'string' || !/^[0-9a-f]{32}$/.test(protectedHeader.nonce))
      return 'client assertion header must carry a nonce of 32 lowercase hex digits';
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.exp !== 'number') return 'client assertion exp must be a number';
    if (payload.exp > now + MAX_ASSERTION_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) {
      return 'client assertion exp is more than five minutes ahead; never-expiring assertions are not allowed';
    }
    if (typeof payload.iat === 'number' && payload.iat > now + CLOCK_SKEW_SECONDS) return 'client assertion iat is in the future';
    return null;
  }

  private mint(clientId: string): TokenResponse {
    const ttl = this.options.tokenTtlSeconds;
    const accessToken = randomBytes(32).toString('base64url');
    this.tokens.set(accessToken, {
      clientId,
      expiresAt: Date.now() + ttl * 1000,
      early: this.options.faults.roll('tokenExpireEarly'),
      uses: 0,
    });
    this.issued += 1;
    if (this.issued % 1000 === 0) this.prune();
    return { access_token: accessToken, token_type: 'Bearer', expires_in: ttl };
  }

  private prune(): void {
    const now = Date.now();
    for (const [token, entry] of this.tokens) if (entry.expiresAt <= now) this.tokens.delete(token);
  }

  /**
   * The principal of a bearer header, or an UNAUTHENTICATED ApiError. `countUse` is false for the
   * /_tenant test hooks, so they do not spend a token that the fault makes expire early.
   */
  authenticate(header: string | undefined, countUse = true): Principal {
    if (!header) throw unauthenticated('missing Authorization header: send Authorization: Bearer <access token>');
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match) throw unauthenticated('the Authorization header must be Bearer <access token>');
    const entry = this.tokens.get(match[1] as string);
    if (!entry) throw unauthenticated('the access token is not valid');
    if (entry.expiresAt <= Date.now() || (entry.early && entry.uses >= 1)) throw unauthenticated('the access token has expired');
    if (countUse) entry.uses += 1;
    return { clientId: entry.clientId };
  }
}
