// Lint enforces the layer boundaries of docs/ARCHITECTURE (see README "Layout"):
// a wrong import fails `npm test`. test/unit/lint-boundaries.test.ts proves each rule bites.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
// The core under src/main: every layer but the fronts (rpc, shell, browser-host) and the entry.
const CORE_LAYERS = ['api', 'collections', 'store', 'sync', 'outbox', 'reports', 'jobs', 'app'];
const layer = (name) => [`**/${name}`, `**/${name}/**`, `@/${name}/**`];

const restrict = (message, groups, paths = []) => ({
  'no-restricted-imports': ['error', { paths: paths.map((name) => ({ name, message })), patterns: [{ group: groups, message }] }],
});

// The renderer talks only to window.attest; inside it, imports run app/ -> views/ -> components/,
// so a view never reaches up into app/, nor a component into app/ or views/.
const rendererRules = (higher, note) => {
  const message = 'the renderer talks only to window.attest: no Node built-ins, electron, main, cli or tenant imports';
  const rule = restrict(
    message,
    [...layer('main'), ...layer('cli'), ...layer('tenant'), ...layer('preload'), 'electron/*'],
    [...nodeBuiltins, 'electron'],
  );
  if (higher.length > 0) {
    const upward = `renderer ${note} (imports run app -> views -> components)`;
    rule['no-restricted-imports'][1].patterns.push({ regex: `^(\\.\\.?/)+(${higher.join('|')})/`, message: upward });
  }
  return rule;
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', '.tools/**', 'test-results/**', 'playwright-report/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // shared/: runs anywhere; depends on nothing of ours and on no Node built-in.
    files: ['src/shared/**'],
    rules: restrict(
      'src/shared runs anywhere: no Node built-ins, no main/renderer/preload/cli/tenant imports',
      [...layer('main'), ...layer('renderer'), ...layer('preload'), ...layer('cli'), ...layer('tenant'), 'electron'],
      nodeBuiltins,
    ),
  },
  {
    // The main process runs under plain Node: only the shell (src/main/index.ts, src/main/shell/) may touch Electron.
    files: ['src/main/**'],
    ignores: ['src/main/index.ts', 'src/main/shell/**'],
    rules: restrict(
      'the core never imports electron or the reference tenant (only src/main/index.ts and src/main/shell/ import electron)',
      ['electron/*', ...layer('tenant'), ...layer('renderer'), ...layer('cli')],
      ['electron'],
    ),
  },
  {
    // The core's layers never reach the fronts that sit on them: rpc, the shell, the browser host, the CLI.
    // (Same message start as above, so one rule reads as one policy; this block replaces it for these files.)
    files: CORE_LAYERS.map((name) => `src/main/${name}/**`),
    rules: restrict(
      'the core never imports electron, the reference tenant or a front (rpc, shell, browser-host, cli)',
      [
        'electron/*',
        ...layer('tenant'),
        ...layer('renderer'),
        ...layer('cli'),
        ...layer('rpc'),
        ...layer('shell'),
        ...layer('browser-host'),
      ],
      ['electron'],
    ),
  },
  {
    // Short functions and lines keep the main process readable; long ones hide state (see docs/desktop-app.md).
    files: ['src/main/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 120 }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'max-len': ['error', { code: 160, tabWidth: 2 }] },
  },
  {
    files: ['src/main/index.ts', 'src/main/shell/**'],
    rules: restrict('the shell never imports the reference tenant, the renderer or the CLI', [
      ...layer('tenant'),
      ...layer('renderer'),
      ...layer('cli'),
    ]),
  },
  {
    // The renderer talks only to window.attest: no Node, no Electron, no core.
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: rendererRules([]),
  },
  {
    // Inside the renderer imports run one way: app/ -> views/ -> components/.
    files: ['src/renderer/views/**'],
    rules: rendererRules(['app'], 'views never import app/'),
  },
  {
    files: ['src/renderer/components/**'],
    rules: rendererRules(['app', 'views'], 'components never import app/ or views/'),
  },
  {
    // The preload holds no logic: electron's bridge and the shared contract only.
    files: ['src/preload/**'],
    rules: restrict(
      'the preload imports only electron and src/shared',
      [...layer('main'), ...layer('renderer'), ...layer('cli'), ...layer('tenant')],
      nodeBuiltins,
    ),
  },
  {
    // The CLI is a thin front over the core; it may start the reference tenant (tenant/demo commands).
    files: ['src/cli/**'],
    rules: restrict('the CLI never imports electron or the renderer', ['electron/*', ...layer('renderer')], ['electron']),
  },
  {
    files: ['src/tenant/**'],
    rules: restrict('the reference tenant is a separate server: it imports only src/shared and Node', [
      ...layer('main'),
      ...layer('renderer'),
      ...layer('cli'),
      ...layer('preload'),
      'electron',
    ]),
  },
);
