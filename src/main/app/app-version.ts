/**
 * The version of Attest, from its package.json: stated on every workbook's cover and Evidence
 * sheet. Found by walking up from this module (source and bundled layouts differ in depth).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function appVersion(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'attest' && pkg.version) return (cached = pkg.version);
    } catch {
      // not here: one folder up
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
