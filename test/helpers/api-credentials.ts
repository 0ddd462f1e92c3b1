/** Test credentials for the API client: a fresh Ed25519 key as a client secret, and its parts. */
import { generateKeyPairSync } from 'node:crypto';

export interface TestCredentials {
  clientId: string;
  clientSecret: string;
  /** The private JWK (with `d`). */
  jwk: { kty: string; crv: string; x: string; d: string };
  domain: string;
}

export function makeSecret(jwk: object, domain = 'tenant.example.com', version = 'v1'): string {
  return `secret-token:${domain}:${version}:${Buffer.from(JSON.stringify(jwk)).toString('base64url')}`;
}

export function testCredentials(hostname = 'tenant.example.com', domain = hostname.replace(/:\d+$/, '')): TestCredentials {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' }) as TestCredentials['jwk'];
  return { clientId: `quiet-otter-42@${hostname}/attest`, clientSecret: makeSecret(jwk, domain), jwk, domain };
}
