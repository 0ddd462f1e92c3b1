// What `npm test` needs from the system besides Node: the keychain module (keytar, which npm builds
// only where libsecret-1-dev, g++ and make are present), a Secret Service for the keychain tests (or
// D-Bus and gnome-keyring to start a throwaway one), Python's openpyxl (the independent reader of
// the report tests), LibreOffice and poppler (a workbook printed to PDF and read back) and Chromium
// (the end-to-end tests). Names the Debian package of each missing piece.
// Run alone, `node scripts/system-check.mjs` prints that line (or nothing) and exits 1 when something is missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SYSTEM_PYTHON = '/usr/bin/python3';
const root = fileURLToPath(new URL('..', import.meta.url));

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function busSays(method, args, expected) {
  const run = spawnSync(
    'dbus-send',
    ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', `org.freedesktop.DBus.${method}`, ...args],
    { encoding: 'utf8', timeout: 5000 },
  );
  return run.status === 0 && run.stdout.includes(expected);
}

/** True when a Secret Service answers (or can be started) on the session bus this process sees. */
function secretServiceReachable(env = process.env) {
  if (!env.DBUS_SESSION_BUS_ADDRESS && !(env.XDG_RUNTIME_DIR && existsSync(`${env.XDG_RUNTIME_DIR}/bus`))) return false;
  return (
    busSays('NameHasOwner', ['string:org.freedesktop.secrets'], 'boolean true') ||
    busSays('ListActivatableNames', [], '"org.freedesktop.secrets"')
  );
}

const keyringPieces = [
  { package: 'dbus', why: 'dbus-run-session and dbus-send', present: () => onPath('dbus-run-session') && onPath('dbus-send') },
  { package: 'gnome-keyring', why: 'gnome-keyring-daemon', present: () => onPath('gnome-keyring-daemon') },
];

/**
 * 'reachable': a Secret Service answers already (a desktop session, or inside scripts/with-keyring.sh);
 * 'startable': none, but D-Bus and gnome-keyring are there to start a throwaway one; 'missing': neither.
 */
export function keyringState(env = process.env) {
  if (env.ATTEST_IN_KEYRING_SESSION || secretServiceReachable(env)) return 'reachable';
  return keyringPieces.every((piece) => piece.present()) ? 'startable' : 'missing';
}

/** One line naming the missing packages and the command that installs them, or null when nothing is missing. */
export function missingSystemPackages({ unit, e2e, keyring }, env = process.env) {
  const chromium = env.PLAYWRIGHT_CHROMIUM_EXECUTABLE || '/usr/bin/chromium';
  const pieces = [
    ...(keyring ? keyringPieces : []),
    ...(unit
      ? [
          {
            package: 'libsecret-1-dev g++ make',
            why: 'to build the keychain module, keytar: run `npm install` again once they are there',
            present: () => spawnSync(process.execPath, ['-e', "require('keytar')"], { cwd: root, stdio: 'ignore' }).status === 0,
          },
          {
            package: 'python3-openpyxl',
            why: `openpyxl for ${SYSTEM_PYTHON}`,
            present: () => spawnSync(SYSTEM_PYTHON, ['-c', 'import openpyxl'], { stdio: 'ignore' }).status === 0,
          },
          {
            package: 'python3-lz4',
            why: `lz4 for ${SYSTEM_PYTHON}, to read the store's raws independently`,
            present: () => spawnSync(SYSTEM_PYTHON, ['-c', 'import lz4.block'], { stdio: 'ignore' }).status === 0,
          },
          { package: 'libreoffice-calc-nogui', why: 'soffice, to print a workbook to PDF', present: () => onPath('soffice') },
          {
            package: 'poppler-utils',
            why: 'pdfinfo and pdftotext, to read that PDF',
            present: () => onPath('pdfinfo') && onPath('pdftotext'),
          },
        ]
      : []),
    ...(e2e ? [{ package: 'chromium', why: `a browser at ${chromium}`, present: () => existsSync(chromium) }] : []),
  ];
  const missing = pieces.filter((piece) => !piece.present());
  if (missing.length === 0) return null;
  const names = missing.map((piece) => piece.package);
  return (
    `npm test: missing system packages: ${missing.map((piece) => `${piece.package} (${piece.why})`).join(', ')}; ` +
    `install them with: sudo apt-get install ${names.join(' ')}`
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const missing = missingSystemPackages({ unit: true, e2e: true, keyring: keyringState() === 'missing' });
  if (missing) process.stderr.write(`${missing}\n`);
  process.exit(missing ? 1 : 0);
}
