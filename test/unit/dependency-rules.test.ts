import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// The project's dependency-cruiser rules (.dependency-cruiser.cjs), run by its CLI as `npm test` runs them,
// over small trees planted in a temporary folder: each kind of violation is refused, a clean tree passes.
const root = resolve(__dirname, '../..');
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');
const config = join(root, '.dependency-cruiser.cjs');
let dir = '';

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = '';
});

interface Outcome {
  ok: boolean;
  rules: string[];
  /** The files that broke a rule. */
  offenders: string[];
}

/** Plants `files` (path → source) under a fresh folder and runs the project's rules over its src/. */
function cruise(files: Record<string, string>): Outcome {
  dir = mkdtempSync(join(tmpdir(), 'attest-deps-'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'esnext', moduleResolution: 'bundler', strict: true } }),
  );
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  // The JSON reporter exits 0 whatever it finds; the summary's error count is the verdict `npm test` acts on.
  const output = execFileSync(depcruise, ['src', '--config', config, '--output-type', 'json'], { cwd: dir, encoding: 'utf8' });
  const report = JSON.parse(output) as { summary: { error: number; violations: { from: string; rule: { name: string } }[] } };
  const rules = [...new Set(report.summary.violations.map((v) => v.rule.name))].sort();
  const offenders = [...new Set(report.summary.violations.map((v) => v.from))].sort();
  return { ok: report.summary.error === 0, rules, offenders };
}

describe('dependency rules', () => {
  it('pass a tree whose imports run one way', () => {
    const outcome = cruise({
      'src/shared/kinds.ts': 'export const KINDS = [1];\n',
      'src/main/api/client.ts': "import { KINDS } from '../../shared/kinds';\nexport const client = KINDS;\n",
      'src/main/store/db.ts': "import { client } from '../api/client';\nexport const db = client;\n",
      'src/main/app/workspace.ts': "import { db } from '../store/db';\nexport const ws = db;\n",
      'src/main/rpc/handlers.ts': "import { ws } from '../app/workspace';\nexport const h = ws;\n",
      'src/cli/index.ts': "import { ws } from '../main/app/workspace';\nexport const cli = ws;\n",
    });
    expect(outcome.rules).toEqual([]);
    expect(outcome.ok).toBe(true);
  });

  it('refuse an import loop, also when one side imports only a type', () => {
    const outcome = cruise({
      'src/main/outbox/queue.ts': "import { send } from './sender';\nexport interface Row { id: string }\nexport const queue = send;\n",
      'src/main/outbox/sender.ts': "import type { Row } from './queue';\nexport const send = (row: Row) => row.id;\n",
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.rules).toEqual(['no-circular']);
  });

  it('refuse a lower layer importing a higher one', () => {
    const outcome = cruise({
      'src/main/app/workspace.ts': 'export const ws = 1;\n',
      'src/main/store/db.ts': "import { ws } from '../app/workspace';\nexport const db = ws;\n",
      'src/main/api/client.ts': "import { db } from '../store/db';\nexport const client = db;\n",
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.rules).toEqual(['layer-api', 'layer-store']);
  });

  it('refuse sync and outbox importing each other', () => {
    const outcome = cruise({
      'src/main/outbox/queue.ts': 'export const queue = 1;\n',
      'src/main/sync/engine.ts': "import { queue } from '../outbox/queue';\nexport const engine = queue;\n",
    });
    expect(outcome.rules).toEqual(['layer-sync-alone']);
  });

  it('refuse the core importing a front or the reference tenant', () => {
    const outcome = cruise({
      'src/cli/io.ts': 'export const io = 1;\n',
      'src/tenant/server.ts': 'export const tenant = 1;\n',
      'src/main/reports/workbook.ts':
        "import { io } from '../../cli/io';\nimport { tenant } from '../../tenant/server';\nexport const w = [io, tenant];\n",
    });
    expect(outcome.rules).toEqual(['cli-is-a-front', 'core-not-fronts', 'core-not-tenant']);
  });

  it('keep shared, renderer and tenant to themselves', () => {
    const outcome = cruise({
      'src/main/store/db.ts': 'export const db = 1;\n',
      'src/shared/enums.ts': "import { db } from '../main/store/db';\nexport const e = db;\n",
      'src/renderer/api.ts': "import { db } from '../main/store/db';\nexport const r = db;\n",
      'src/tenant/router.ts': "import { db } from '../main/store/db';\nexport const t = db;\n",
    });
    expect(outcome.rules).toEqual(['renderer-only-shared', 'shared-alone', 'tenant-alone']);
  });

  it('refuse the CLI importing the core below the application layer, also for a type only', () => {
    const outcome = cruise({
      'src/main/outbox/queue.ts': 'export const MUTATION_KINDS = [1];\nexport interface Row { id: string }\n',
      'src/cli/commands/queue.ts': "import { MUTATION_KINDS } from '../../main/outbox/queue';\nexport const kinds = MUTATION_KINDS;\n",
      'src/cli/commands/journal.ts': "import type { Row } from '../../main/outbox/queue';\nexport const id = (row: Row) => row.id;\n",
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.rules).toEqual(['cli-through-app']);
    expect(outcome.offenders).toEqual(['src/cli/commands/journal.ts', 'src/cli/commands/queue.ts']);
  });

  it('let the CLI import the application layer, the browser host above it, shared and the reference tenant', () => {
    const outcome = cruise({
      'src/shared/kinds.ts': 'export const KINDS = [1];\n',
      'src/main/outbox/queue.ts': "import { KINDS } from '../../shared/kinds';\nexport const MUTATION_KINDS = KINDS;\n",
      'src/main/app/outbox.ts': "export { MUTATION_KINDS } from '../outbox/queue';\n",
      'src/main/browser-host/server.ts': "import { MUTATION_KINDS } from '../app/outbox';\nexport const host = MUTATION_KINDS;\n",
      'src/tenant/server.ts': "import { KINDS } from '../shared/kinds';\nexport const tenant = KINDS;\n",
      'src/cli/commands/queue.ts':
        "import { MUTATION_KINDS } from '../../main/app/outbox';\nimport { host } from '../../main/browser-host/server';\n" +
        "import { KINDS } from '../../shared/kinds';\nimport { tenant } from '../../tenant/server';\n" +
        'export const all = [MUTATION_KINDS, host, KINDS, tenant];\n',
    });
    expect(outcome.rules).toEqual([]);
    expect(outcome.ok).toBe(true);
  });
});
