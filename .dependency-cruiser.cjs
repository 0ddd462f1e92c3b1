// Import rules for src/, checked by `npm run deps` (a step of `npm test`); test/unit/dependency-rules.test.ts
// plants a violation of each kind and sees it refused. Type-only imports count too: a loop through types is
// still a loop a reader has to untangle.

// The core's layers, lowest first. A layer imports only layers below it (and the core's base files:
// errors, events, keychain, input files, OS user). sync and outbox share a rank and never import each other.
const CORE_LAYERS = [
  ['api'],
  ['collections'],
  ['store'],
  ['sync', 'outbox'],
  ['reports'],
  ['jobs'],
  ['app'],
  ['rpc'],
  ['shell'],
  ['browser-host'],
];

const dir = (name) => `^src/main/${name}/`;
const anyOf = (names) => names.map(dir);

const layerRules = CORE_LAYERS.flatMap((names, rank) => {
  const higher = CORE_LAYERS.slice(rank + 1).flat();
  const peers = names.length > 1 ? names : [];
  const rules = [];
  if (higher.length > 0) {
    rules.push({
      name: `layer-${names.join('-')}`,
      comment: `${names.join(' and ')} sit below ${higher.join(', ')}: imports run from higher layers to lower ones only`,
      severity: 'error',
      from: { path: anyOf(names) },
      to: { path: [...anyOf(higher), '^src/main/index\\.ts$'] },
    });
  }
  for (const name of peers) {
    rules.push({
      name: `layer-${name}-alone`,
      comment: `${name} and ${peers.filter((p) => p !== name).join(', ')} share a layer and never import each other`,
      severity: 'error',
      from: { path: dir(name) },
      to: { path: anyOf(peers.filter((p) => p !== name)) },
    });
  }
  return rules;
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import loop anywhere in src/, type-only imports included',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'core-base-files',
      comment: "the core's base files (errors, events, keychain, input files, OS user) import no layer above the API client",
      severity: 'error',
      from: { path: '^src/main/[^/]+\\.ts$', pathNot: '^src/main/(index|demo-tenant)\\.ts$' },
      to: { path: anyOf(CORE_LAYERS.slice(1).flat()) },
    },
    {
      name: 'core-not-fronts',
      comment: 'the core never imports a front: the CLI, the renderer or the preload',
      severity: 'error',
      from: { path: '^src/main/' },
      to: { path: ['^src/cli/', '^src/renderer/', '^src/preload/'] },
    },
    {
      name: 'core-not-tenant',
      comment: 'the core talks to a tenant over HTTP only; it never imports the reference tenant',
      severity: 'error',
      from: { path: '^src/main/' },
      to: { path: '^src/tenant/' },
    },
    {
      name: 'shared-alone',
      comment: 'src/shared runs anywhere: it imports nothing else of ours',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'renderer-only-shared',
      comment: 'the renderer talks to the main process only through window.attest: of ours it imports only src/shared',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { path: '^src/', pathNot: ['^src/renderer/', '^src/shared/'] },
    },
    {
      name: 'preload-only-shared',
      comment: 'the preload holds no logic: of ours it imports only src/shared',
      severity: 'error',
      from: { path: '^src/preload/' },
      to: { path: '^src/', pathNot: ['^src/preload/', '^src/shared/'] },
    },
    {
      name: 'tenant-alone',
      comment: 'the reference tenant is a separate server: of ours it imports only src/shared',
      severity: 'error',
      from: { path: '^src/tenant/' },
      to: { path: '^src/', pathNot: ['^src/tenant/', '^src/shared/'] },
    },
    {
      name: 'cli-through-app',
      comment:
        'the CLI is a front: of the core it imports only the application layer (src/main/app), where both fronts ' +
        'find the same use cases, so no command reaches into the outbox, the store or the API client on its own. ' +
        'The browser host sits above app (ui-host starts it), so importing it reaches nothing below app by itself. ' +
        'Type-only imports count too: a type from a lower layer ties the CLI to it all the same',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/main/', pathNot: ['^src/main/app/', '^src/main/browser-host/'] },
    },
    {
      name: 'cli-is-a-front',
      comment: 'nothing imports the CLI but the CLI itself',
      severity: 'error',
      from: { pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
