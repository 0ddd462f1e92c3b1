#!/usr/bin/env node
// `npm test`: lint, format check, typecheck, import rules, vitest (unit + integration), renderer build, Playwright e2e.
// Every step runs even when an earlier one fails; the last line is `N passed, N failed` over all
// suites (lint, format, typecheck and import rules count as one check each). Exits non-zero on any failure, on a missing
// report, on zero tests, and (under CI=true) on any skipped test.
// Runs under the project's Node (fetched where the system one is older), and inside its own D-Bus
// session with a throwaway unlocked keyring (scripts/with-keyring.sh) where no Secret Service is
// reachable. A missing system package is named in one line, with the command that installs it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { envFor, reexecUnderProjectNode, runAndExit } from './node-runtime.mjs';
import { keyringState, missingSystemPackages } from './system-check.mjs';

await reexecUnderProjectNode();

const only = process.argv.slice(2); // e.g. `npm test -- unit e2e`
const want = (step) => only.length === 0 || only.includes(step);
const needsKeyring = want('unit') || want('e2e');
const keyring = needsKeyring ? keyringState() : 'reachable';
if (keyring === 'startable') {
  const withKeyring = fileURLToPath(new URL('./with-keyring.sh', import.meta.url));
  await runAndExit(process.execPath, 'bash', [withKeyring, process.execPath, fileURLToPath(import.meta.url), ...only]);
}

const root = new URL('..', import.meta.url).pathname;
const results = join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const ci = process.env.CI === 'true' || process.env.CI === '1';
const bin = (name) => join(root, 'node_modules', '.bin', name);

let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];

function run(label, command, args) {
  process.stderr.write(`\n=== ${label}: ${[command, ...args].join(' ')}\n`);
  // This Node first on PATH, so the tools' `#!/usr/bin/env node` runs under it too.
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: envFor(process.execPath) });
  return result.status === 0;
}

function check(label, command, args) {
  if (run(label, command, args)) passed += 1;
  else {
    failed += 1;
    problems.push(`${label} failed`);
  }
}

function readReport(label, file) {
  if (!existsSync(file)) {
    failed += 1;
    problems.push(`${label}: no report at ${file}`);
    return null;
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    failed += 1;
    problems.push(`${label}: unreadable report (${error.message})`);
    return null;
  }
}

function suite(label, counts, exitedOk) {
  if (!counts) return;
  passed += counts.passed;
  failed += counts.failed;
  skipped += counts.skipped;
  if (counts.passed + counts.failed === 0) {
    failed += 1;
    problems.push(`${label}: ran no test`);
  }
  if (!exitedOk && counts.failed === 0) {
    failed += 1;
    problems.push(`${label}: runner failed outside any test`);
  }
}

// Missing system packages fail the run (the suites that need them would fail anyway), named up front.
const missing = missingSystemPackages({ e2e: want('e2e'), unit: want('unit'), keyring: keyring === 'missing' });
if (missing) {
  process.stderr.write(`${missing}\n`);
  failed += 1;
  problems.push(missing);
}

if (want('lint')) check('lint', bin('eslint'), ['.', '--max-warnings=0']);
if (want('format')) check('format', bin('prettier'), ['--check', '.', '--log-level=warn']);
if (want('typecheck')) check('typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']);
// Import loops and layer rules (.dependency-cruiser.cjs): one check, like lint.
if (want('deps')) check('deps', bin('depcruise'), ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err']);

if (want('unit')) {
  const ok = run('vitest', bin('vitest'), ['run']);
  const report = readReport('vitest', join(results, 'vitest.json'));
  if (report) {
    const pending = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    suite('vitest', { passed: report.numPassedTests, failed: report.numFailedTests, skipped: pending }, ok);
  }
}

if (want('e2e')) {
  const built = run('build', bin('electron-vite'), ['build']);
  if (!built) {
    failed += 1;
    problems.push('renderer build failed');
  } else {
    const ok = run('playwright', bin('playwright'), ['test']);
    const report = readReport('playwright', join(results, 'playwright.json'));
    if (report) {
      const s = report.stats ?? {};
      suite('playwright', { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0, skipped: s.skipped ?? 0 }, ok);
    }
  }
}

if (ci && skipped > 0) {
  failed += skipped;
  problems.push(`${skipped} test(s) skipped under CI`);
}
for (const problem of problems) process.stderr.write(`! ${problem}\n`);
const summary = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
writeFileSync(join(results, 'summary.txt'), `${summary}\n`);
process.stdout.write(`${summary}\n`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
