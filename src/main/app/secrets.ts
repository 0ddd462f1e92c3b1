/**
 * What the OS keychain keeps for Attest, as the fronts reach it: the connections' client secrets
 * (account = client id; see saved-connections) and this machine's evidence signing key. The
 * keychain module itself sits below the application layer, where the report signer reads it too.
 */
export {
  KEYCHAIN_MODULE_MISSING,
  keychainAvailable,
  keychainModuleMissing,
  memorySecretStore,
  osKeychain,
  type SecretStore,
} from '../keychain';
export { publicKeyPem, SIGNING_KEY_ACCOUNT, signingKey } from '../reports';
