import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** What `npm test` says about the system packages it needs (scripts/system-check.mjs, run as `npm test` runs it). */
const script = fileURLToPath(new URL('../../scripts/system-check.mjs', import.meta.url));
const bare = mkdtempSync(join(tmpdir(), 'attest-system-check-'));
afterAll(() => rmSync(bare, { recursive: true, force: true }));
// A PATH with a shell and nothing else: no dbus-run-session, dbus-send or gnome-keyring-daemon.
symlinkSync('/bin/sh', join(bare, 'sh'));

function check(env: NodeJS.ProcessEnv) {
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8', env });
  return { code: run.status, err: run.stderr.trim() };
}

describe('the system check of npm test', () => {
  it('passes on this machine, where the packages are installed', () => {
    expect(check(process.env)).toEqual({ code: 0, err: '' });
  });

  it('names each missing piece with its Debian package, in one line with the command that installs them', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: bare, PLAYWRIGHT_CHROMIUM_EXECUTABLE: join(bare, 'no-chromium') };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    delete env.ATTEST_IN_KEYRING_SESSION;
    delete env.XDG_RUNTIME_DIR;
    const { code, err } = check(env);
    expect(code).toBe(1);
    expect(err.split('\n')).toHaveLength(1);
    expect(err).toContain('dbus (dbus-run-session and dbus-send)');
    expect(err).toContain('gnome-keyring (gnome-keyring-daemon)');
    expect(err).toContain(`chromium (a browser at ${join(bare, 'no-chromium')})`);
    expect(err).not.toContain('python3-openpyxl');
    expect(err).toContain('libreoffice-calc-nogui (soffice, to print a workbook to PDF)');
    expect(err).toContain('poppler-utils (pdfinfo and pdftotext, to read that PDF)');
    expect(err).toMatch(/install them with: sudo apt-get install dbus gnome-keyring libreoffice-calc-nogui poppler-utils chromium$/);
  });

  it('names the packages that build the keychain module where npm could not build it', () => {
    const withoutKeytar = fileURLToPath(new URL('../helpers/without-keytar.mjs', import.meta.url));
    const { code, err } = check({ ...process.env, NODE_OPTIONS: `--import ${withoutKeytar}` });
    expect(code).toBe(1);
    expect(err).toBe(
      'npm test: missing system packages: libsecret-1-dev g++ make (to build the keychain module, keytar: run `npm install` again once they are there); ' +
        'install them with: sudo apt-get install libsecret-1-dev g++ make',
    );
  });
});
