// What the server build (scripts/build-server.mjs) and the test bundles (scripts/bundle-tests.mjs)
// leave as packages loaded from node_modules; every other dependency is bundled with the code, since
// resolving and loading their ~900 files one by one cost each process about 0.25 s of processor time
// (every `earshot` command and every test file is a process of its own).
import { readFileSync } from 'node:fs';

export const UNBUNDLED = [
  // Test tools and the real clients tests point at the server, run as published (never in the server build).
  ...Object.keys(JSON.parse(readFileSync('package.json', 'utf8')).devDependencies),
  // PGlite finds its WebAssembly and data files beside its own modules.
  '@electric-sql/pglite',
  // pino's pretty printer and worker streams are started by file name.
  'pino',
  'pino-pretty',
  'thread-stream',
  // node-postgres' optional native binding, absent unless installed.
  'pg-native',
  // Build tools.
  'tsx',
  'esbuild',
  'vite',
  '@vitejs/plugin-react',
];

/**
 * Bundled CommonJS packages call `require` for Node's built-in modules; in an ES module output there is
 * none, so each output file gets one made for it.
 */
export const REQUIRE_BANNER = "import { createRequire as __earshotCreateRequire } from 'node:module'; const require = __earshotCreateRequire(import.meta.url);";
