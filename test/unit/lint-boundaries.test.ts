import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer rules of eslint.config.js, proven against code that breaks them.
const eslint = new ESLint({ cwd: process.cwd() });

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
});
