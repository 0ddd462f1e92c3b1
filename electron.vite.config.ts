import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
// @ts-expect-error: a plain ES module of the build scripts, without type declarations
import { writeNotices } from './scripts/third-party-notices.mjs';

/** The third-party licence notices, written beside the renderer bundle once it is built (read by About). */
function thirdPartyNotices(outDir: string): Plugin {
  return {
    name: 'attest-third-party-notices',
    apply: 'build',
    async closeBundle() {
      await (writeNotices as (root: string, file: string) => Promise<number>)(__dirname, resolve(outDir, 'third-party-notices.json'));
    },
  };
}

// Three bundles: the main process (shell + core), the sandboxed preload (CommonJS, as sandboxed
// preloads require), and the React renderer.
export default defineConfig({
  main: {
    // The sync worker is its own entry: jobs/sync-job.ts starts it as ./sync-worker.js next to index.js.
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/main/index.ts'), 'sync-worker': resolve(__dirname, 'src/main/jobs/sync-worker.ts') },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: { rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } } },
    // The README and docs/ are bundled for Help (outside the renderer's root).
    server: { fs: { allow: [__dirname] } },
    plugins: [react(), thirdPartyNotices(resolve(__dirname, 'out/renderer'))],
  },
});
