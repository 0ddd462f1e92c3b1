import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { refuseExisting } from '../../main/app/output-file';
import { osKeychain, publicKeyPem, SIGNING_KEY_ACCOUNT, signingKey, type SecretStore } from '../../main/app/secrets';
import { EXIT } from '../exit-codes';
import { parseCommandArgs, UsageError, type CommandModule } from '../io';

const usage = `Usage: attest key [--out FILE.pem [--force]] [--json]

Prints the public key and the fingerprint of this machine's evidence signing key: an Ed25519 key
whose private half stays in the OS keychain (service "attest", account "${SIGNING_KEY_ACCOUNT}"),
created on first use. \`attest export --sign\` signs workbooks with it and writes its fingerprint on
their Evidence sheet. Give the fingerprint (or the public key file) to whoever checks your
workbooks: \`attest verify --key SHA256:… FILE.xlsx\` then tells your workbooks from re-hashed ones.

  --out FILE.pem   also write the public key (PEM) to FILE.pem; a file already there is refused
                   (exit 2, nothing written)
  --force          overwrite a file already at --out
  --json           print {fingerprint, publicKey, publicKeyPem} on stdout`;

export interface KeyDeps {
  secrets?: () => SecretStore;
}

export function keyCommand(deps: KeyDeps = {}): CommandModule {
  return {
    summary: "print this machine's evidence signing key (fingerprint and public key)",
    usage,
    async run(argv, io) {
      const { values, positionals } = parseCommandArgs(
        argv,
        { out: { type: 'string' }, force: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
        true,
      );
      if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]!.slice(0, 80)}'`);
      const out = values.out === undefined ? undefined : resolve(values.out);
      if (out && !values.force) refuseExisting(out);
      const signer = await signingKey((deps.secrets ?? (() => osKeychain()))());
      const pem = publicKeyPem(signer.publicKey);
      if (out) {
        await writeFile(out, pem, { flag: 'w' });
        io.err(`wrote the public key to ${out}`);
      }
      if (values.json) io.out(JSON.stringify({ fingerprint: signer.fingerprint, publicKey: signer.publicKey, publicKeyPem: pem }, null, 2));
      else io.out(`${signer.fingerprint}\n${pem.trimEnd()}`);
      return EXIT.ok;
    },
  };
}

export default keyCommand();
