import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer rules of eslint.config.js, proven against code that breaks them.
const eslint = new ESLint({ cwd: process.cwd() });

async function ruleErrors(filePath: string, code: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer boundaries', () => {
  it('refuses electron in a core file', async () => {
    const errors = await importErrors('src/main/store/wrong.ts', "import { app } from 'electron';\nexport const x = app;\n");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/core never imports electron/);
  });

  it('allows electron in the shell and the Electron entry', async () => {
    expect(await importErrors('src/main/shell/window.ts', "import { app } from 'electron';\nexport const x = app;\n")).toEqual([]);
    expect(await importErrors('src/main/index.ts', "import { app } from 'electron';\nexport const x = app;\n")).toEqual([]);
  });

  it('refuses the reference tenant in the core', async () => {
    const errors = await importErrors('src/main/api/wrong.ts', "import { x } from '../../tenant/server';\nexport const y = x;\n");
    expect(errors).toHaveLength(1);
  });

  it('refuses Node built-ins and the core in the renderer', async () => {
    const errors = await importErrors(
      'src/renderer/wrong.ts',
      "import { readFileSync } from 'node:fs';\nimport { x } from '../main/store/db';\nimport path from 'path';\nexport const y = [readFileSync, x, path];\n",
    );
    expect(errors).toHaveLength(3);
  });

  it('refuses Node built-ins and other layers in src/shared', async () => {
    const errors = await importErrors(
      'src/shared/wrong.ts',
      "import { createHash } from 'node:crypto';\nimport { x } from '../main/api/http';\nexport const y = [createHash, x];\n",
    );
    expect(errors).toHaveLength(2);
  });

  it('lets the CLI start the reference tenant but never import electron', async () => {
    expect(await importErrors('src/cli/commands/tenant.ts', "import { x } from '../../tenant/server';\nexport const y = x;\n")).toEqual([]);
    expect(await importErrors('src/cli/commands/x.ts', "import { app } from 'electron';\nexport const y = app;\n")).toHaveLength(1);
  });

  it('keeps renderer imports one way: app -> views -> components', async () => {
    const fromApp = "import { COLLECTION_LABELS } from '../components/collections';\nexport const x = COLLECTION_LABELS;\n";
    expect(await importErrors('src/renderer/app/Frame.tsx', fromApp)).toEqual([]);
    const viewUp = "import { Frame } from '../../app/Frame';\nexport const x = Frame;\n";
    expect(await importErrors('src/renderer/views/overview/Wrong.tsx', viewUp)).toEqual([expect.stringMatching(/views never import app/)]);
    const componentUp =
      "import { Frame } from '../app/Frame';\nimport { Overview } from '../views/overview/Overview';\nexport const x = [Frame, Overview];\n";
    expect(await importErrors('src/renderer/components/Wrong.tsx', componentUp)).toHaveLength(2);
    const viewDown =
      "import { Cell } from '../../components/Cell';\nimport { useApp } from '../../stores/app';\nexport const x = [Cell, useApp];\n";
    expect(await importErrors('src/renderer/views/list/Fine.tsx', viewDown)).toEqual([]);
  });

  it.each(['api', 'collections', 'store', 'sync', 'outbox', 'reports', 'jobs', 'app'])(
    'refuses the fronts in the core layer %s',
    async (name) => {
      const code =
        "import { dispatch } from '../rpc/dispatch';\nimport { menu } from '../shell/menu';\n" +
        "import { host } from '../browser-host/server';\nimport { run } from '../../cli/index';\nexport const x = [dispatch, menu, host, run];\n";
      const errors = await importErrors(`src/main/${name}/wrong.ts`, code);
      expect(errors).toHaveLength(4);
      expect(errors.every((e) => /core never imports .*a front \(rpc, shell, browser-host, cli\)/.test(e))).toBe(true);
    },
  );

  it('lets rpc and the browser host use the application layer', async () => {
    const code = "import { openWorkspace } from '../app/workspace';\nexport const x = openWorkspace;\n";
    expect(await importErrors('src/main/rpc/wrong.ts', code)).toEqual([]);
    expect(await importErrors('src/main/browser-host/wrong.ts', code)).toEqual([]);
  });

  it('refuses a function over 120 lines in the main process', async () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const long = `export function long(): number {\n${body(118)}\n  return v0;\n}\n`;
    const short = `export function short(): number {\n${body(117)}\n  return v0;\n}\n`;
    expect(await ruleErrors('src/main/store/wrong.ts', long, 'max-lines-per-function')).toEqual([
      expect.stringMatching(/too many lines \(121\)/),
    ]);
    expect(await ruleErrors('src/main/store/fine.ts', short, 'max-lines-per-function')).toEqual([]);
  });

  it('refuses a source line over 160 characters', async () => {
    const line = (n: number) => `export const s = '${'x'.repeat(n - 20)}';\n`;
    expect(await ruleErrors('src/renderer/wrong.ts', line(161), 'max-len')).toHaveLength(1);
    expect(await ruleErrors('src/tenant/fine.ts', line(160), 'max-len')).toEqual([]);
  });
});
