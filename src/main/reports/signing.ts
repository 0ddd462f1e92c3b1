import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { SecretStore } from '../keychain';

/**
 * The evidence signing key: an Ed25519 key pair whose private half lives in the OS keychain only
 * (service `attest`, account SIGNING_KEY_ACCOUNT), created on first use. `attest export --sign`
 * signs the workbook's overall hash (which covers every sheet, the Evidence sheet with its
 * signing-key rows included); `attest verify --key FINGERPRINT|FILE` tells a workbook signed by
 * that key from one re-hashed by anyone else. The fingerprint is "SHA256:" + the SHA-256 (hex)
 * of the raw 32-byte public key.
 */

/** The keychain account of the signing key (client ids, the other accounts, always hold an "@"). */
export const SIGNING_KEY_ACCOUNT = 'evidence-signing-key';
const STORED_PREFIX = 'ed25519-pkcs8:';

export interface EvidenceSigner {
  /** Raw 32-byte Ed25519 public key, base64. */
  publicKey: string;
  fingerprint: string;
  sign(message: Buffer): Buffer;
}

/** What the signature covers: the canonical form and the overall hash, as text. */
export function signedMessage(form: string, overallSha256: string): Buffer {
  return Buffer.from(`attest-signature/1\n${form}\n${overallSha256}\n`, 'utf8');
}

const rawPublicKey = (key: KeyObject): Buffer => Buffer.from(String(key.export({ format: 'jwk' }).x), 'base64url');

export function fingerprintOf(publicKey: string | Buffer): string {
  const raw = typeof publicKey === 'string' ? Buffer.from(publicKey, 'base64') : publicKey;
  return `SHA256:${createHash('sha256').update(raw).digest('hex')}`;
}

function signerOf(privateKey: KeyObject): EvidenceSigner {
  const raw = rawPublicKey(createPublicKey(privateKey));
  return {
    publicKey: raw.toString('base64'),
    fingerprint: fingerprintOf(raw),
    sign: (message) => sign(null, message, privateKey),
  };
}

/** A fresh key pair that is kept nowhere (tests, and the signer of a forger in them). */
export function ephemeralSigner(): EvidenceSigner {
  return signerOf(generateKeyPairSync('ed25519').privateKey);
}

function parseStored(stored: string): KeyObject {
  if (!stored.startsWith(STORED_PREFIX)) throw new Error('the signing key in the OS keychain is not an Ed25519 key written by Attest');
  const key = createPrivateKey({ key: Buffer.from(stored.slice(STORED_PREFIX.length), 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the signing key in the OS keychain is not an Ed25519 key');
  return key;
}

/** The signing key from the keychain, created and stored there on first use. */
export async function signingKey(secrets: SecretStore): Promise<EvidenceSigner> {
  const stored = await secrets.get(SIGNING_KEY_ACCOUNT);
  if (stored) return signerOf(parseStored(stored));
  const { privateKey } = generateKeyPairSync('ed25519');
  const der = privateKey.export({ format: 'der', type: 'pkcs8' });
  await secrets.set(SIGNING_KEY_ACCOUNT, `${STORED_PREFIX}${der.toString('base64')}`);
  // Two first uses at once: both end with the key the keychain kept.
  return signerOf(parseStored((await secrets.get(SIGNING_KEY_ACCOUNT)) ?? `${STORED_PREFIX}${der.toString('base64')}`));
}

/** The public key as PEM (SubjectPublicKeyInfo), for `attest key` and `verify --key FILE`. */
export function publicKeyPem(publicKey: string): string {
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey, 'base64').toString('base64url') },
    format: 'jwk',
  });
  return String(key.export({ format: 'pem', type: 'spki' }));
}

/** Whether `signature` (base64) is the Ed25519 signature of `message` by `publicKey` (raw, base64). */
export function signatureValid(publicKey: string, message: Buffer, signature: string): boolean {
  const raw = Buffer.from(publicKey, 'base64');
  const sig = Buffer.from(signature, 'base64');
  if (raw.length !== 32 || sig.length !== 64) return false;
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  return verify(null, message, key, sig);
}

/** A fingerprint as given (any case, with or without "SHA256:", spaces or colons between groups), or null. */
export function normaliseFingerprint(text: string): string | null {
  const hex = text
    .trim()
    .replace(/^sha256:/i, '')
    .replace(/[\s:]/g, '');
  return /^[0-9a-f]{64}$/i.test(hex) ? `SHA256:${hex.toLowerCase()}` : null;
}

/**
 * The fingerprint a `--key` value names: a fingerprint itself, or the text of a key file (an
 * Ed25519 public key in PEM, or a fingerprint). Null when it is neither.
 */
export function fingerprintFromKeyText(text: string): string | null {
  const direct = normaliseFingerprint(text);
  if (direct) return direct;
  if (!text.includes('-----BEGIN PUBLIC KEY-----')) return null;
  try {
    const key = createPublicKey({ key: text, format: 'pem' });
    return key.asymmetricKeyType === 'ed25519' ? fingerprintOf(rawPublicKey(key)) : null;
  } catch {
    return null;
  }
}
