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
    // The worker threads are entries of their own, started as ./<name>.js next to the module that
    // starts them: the sync worker (jobs/sync-job.ts) and the thread that commits a sync's pages
    // (store/page-writer.ts). Shared chunks sit beside the entries, so that "next to" is one folder.
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'sync-worker': resolve(__dirname, 'src/main/jobs/sync-worker.ts'),
          'page-writer-thread': resolve(__dirname, 'src/main/store/page-writer-thread.ts'),
        },
        output: { chunkFileNames: '[name]-[hash].js' },
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
