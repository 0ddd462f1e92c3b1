import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

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
    plugins: [react()],
  },
});
