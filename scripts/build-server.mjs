// Bundles the server and CLI into dist/src, which `npm start` and bin/earshot.js run: one plain Node
// process, no TypeScript compiler at run time. One entry (src/cli/main.ts); each command's module,
// imported lazily, becomes a chunk of its own (code splitting), so help and light commands still load
// little. Why a bundle and not a file-by-file transpile: the CLI is a process of its own at every
// call, and loading some 700 modules one by one cost about 0.6 s of processor time before `serve`
// did anything; bundled it is about half of that. Its dependencies are bundled too, but for a few that
// find files beside themselves (scripts/unbundled-packages.mjs). The build only
// transpiles (esbuild): `npm run typecheck` is the one type-check pass. `--if-stale` builds only when a
// source or tsconfig.json is newer than the last build (npm start and scripts/run-tests.mjs run it;
// npm ci builds always). Tests and test support (fixtures, fakes) are never imported from main.ts,
// so they stay out of dist/ (the layer rules forbid shipped code to import them).
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { newestSource } from './newest-source.mjs';
import { REQUIRE_BANNER, UNBUNDLED } from './unbundled-packages.mjs';

const stamp = path.resolve('dist/.built');
const inputs = [path.resolve('src'), path.resolve('tsconfig.json')];

const newestInput = () => Math.max(...inputs.map((input) => (fs.statSync(input).isDirectory() ? newestSource(input) : fs.statSync(input).mtimeMs)));
if (process.argv.includes('--if-stale') && fs.existsSync(stamp) && newestInput() <= fs.statSync(stamp).mtimeMs) process.exit(0);

fs.rmSync(path.resolve('dist/src'), { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/main.ts'],
  outbase: 'src',
  outdir: 'dist/src',
  // Chunks two levels below the package root, as main.js is: src/toolkit/package-root.ts finds
  // package.json from its own folder (import.meta.dirname), which in a bundle is the chunk's.
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  external: UNBUNDLED,
  banner: { js: REQUIRE_BANNER },
  sourcemap: true,
  logLevel: 'warning',
});
fs.writeFileSync(stamp, '');
