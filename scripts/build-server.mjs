// Compiles the server and CLI (src/, tests and test support left out) into dist/src, which
// `npm start` and bin/earshot.js run: a compiled start is one plain Node process and loads no
// TypeScript compiler. The build only transpiles (esbuild, file by file): `npm run typecheck` is the
// one type-check pass. `--if-stale` builds only when a source or tsconfig.json is newer than the
// last build (npm start and scripts/run-tests.mjs run it; npm ci builds always).
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { newestSource } from './newest-source.mjs';

const stamp = path.resolve('dist/.built');
const inputs = [path.resolve('src'), path.resolve('tsconfig.json')];

const newestInput = () => Math.max(...inputs.map((input) => (fs.statSync(input).isDirectory() ? newestSource(input) : fs.statSync(input).mtimeMs)));
if (process.argv.includes('--if-stale') && fs.existsSync(stamp) && newestInput() <= fs.statSync(stamp).mtimeMs) process.exit(0);

/** Tests, test support (fixtures, fakes: `testing.ts`, `*-testing.ts`) and declarations stay out of dist/. */
const shipped = (name) => name.endsWith('.ts') && !/(\.test|\.d)\.ts$/.test(name) && !/(^|-)testing\.ts$/.test(name);

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return shipped(entry.name) ? [full] : [];
  });
}

// Sources import each other by their .ts names (allowImportingTsExtensions); compiled, they are .js.
// ".ts" and ".js" have one length, so the source maps stay right.
const RELATIVE_TS_IMPORT = /((?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"']+)\.ts\2/g;

fs.rmSync(path.resolve('dist/src'), { recursive: true, force: true });
const result = await build({
  entryPoints: sources('src'),
  outdir: 'dist/src',
  outbase: 'src',
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  write: false,
  logLevel: 'warning',
});
for (const file of result.outputFiles) {
  fs.mkdirSync(path.dirname(file.path), { recursive: true });
  fs.writeFileSync(file.path, file.path.endsWith('.js') ? file.text.replace(RELATIVE_TS_IMPORT, '$1$2$3.js$2') : file.contents);
}
fs.writeFileSync(stamp, '');
