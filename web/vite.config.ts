import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Writes app-files.json: every script and style sheet of the build, lazy pages included, so the
 * service worker (public/sw.js) can keep them all at install and any page opens offline, not only
 * those visited while online.
 */
const appFiles = (): Plugin => ({
  name: 'earshot-app-files',
  apply: 'build',
  generateBundle(_options, bundle) {
    const files = Object.keys(bundle)
      .filter((name) => /\.(js|css)$/.test(name))
      .sort()
      .map((name) => `/${name}`);
    this.emitFile({ type: 'asset', fileName: 'app-files.json', source: JSON.stringify(files) });
  },
});

// The web app: built into web/dist and served by the API host at `/` (src/web/static.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), appFiles()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 600 },
  server: {
    proxy: {
      '/xrpc': 'http://127.0.0.1:8000',
      '/auth': 'http://127.0.0.1:8000',
      '/access-tokens': 'http://127.0.0.1:8000',
      '/providers': 'http://127.0.0.1:8000',
      '/export': 'http://127.0.0.1:8000',
      '/rest': 'http://127.0.0.1:8000',
    },
  },
  test: {
    // One environment for all of a project's files rather than a fresh jsdom per file: setting up
    // jsdom was most of the run (21 s against 5 s, 25 files). Each test stubs what it needs and the
    // stubs are undone after it, so no file sees another's.
    isolate: false,
    unstubGlobals: true,
    // A hang guard, not a speed check: beside the server's test files on two busy cores, a component
    // test that takes half a second alone has taken seven (vitest's default gives up at five).
    testTimeout: 30_000,
    // Components (.tsx) render into jsdom; plain .ts modules touch no DOM, and skip its seconds of set-up.
    projects: [
      { extends: true, test: { name: 'components', environment: 'jsdom', include: ['src/**/*.test.tsx'] } },
      { extends: true, test: { name: 'modules', environment: 'node', include: ['src/**/*.test.ts'] } },
    ],
  },
});
