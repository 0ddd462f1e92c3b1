// The third-party licence notices of Attest's production dependencies (the modules the packaged
// app ships or bundles), generated at build time with license-checker-rseidelsohn and written as
// JSON beside the renderer bundle, where the About dialog reads them. The result is cached per
// package-lock.json (a build with the same dependencies reuses it).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { init } from 'license-checker-rseidelsohn';

const FIELDS = { name: '', version: '', licenses: '', repository: '', licenseText: '' };

function collect(root) {
  return new Promise((resolve, reject) => {
    init({ start: root, production: true, excludePrivatePackages: true, customFormat: FIELDS }, (error, packages) =>
      error ? reject(error) : resolve(packages),
    );
  });
}

const text = (value) => (Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '');

/** Writes `file` (the notices as JSON) for the project at `root`; returns how many packages it lists. */
export async function writeNotices(root, file) {
  const lock = createHash('sha256')
    .update(readFileSync(join(root, 'package-lock.json')))
    .digest('hex');
  const cache = join(root, 'node_modules', '.cache', 'attest', `third-party-notices-${lock.slice(0, 16)}.json`);
  let json;
  if (existsSync(cache)) {
    json = readFileSync(cache, 'utf8');
  } else {
    const found = await collect(root);
    const packages = Object.entries(found)
      .map(([key, info]) => ({
        name: text(info.name) || key.slice(0, key.lastIndexOf('@')),
        version: text(info.version) || key.slice(key.lastIndexOf('@') + 1),
        licenses: text(info.licenses) || 'UNKNOWN',
        repository: text(info.repository),
        text: text(info.licenseText),
      }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
    json = JSON.stringify({ generatedAt: new Date().toISOString(), packages });
    mkdirSync(dirname(cache), { recursive: true });
    writeFileSync(cache, json);
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, json);
  return JSON.parse(json).packages.length;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = new URL('..', import.meta.url).pathname;
  const out = process.argv[2] ?? join(root, 'out', 'renderer', 'third-party-notices.json');
  const count = await writeNotices(root, out);
  process.stderr.write(`attest: ${count} third-party licence notices in ${out}\n`);
}
