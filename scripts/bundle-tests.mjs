// Bundles test files for the test runner (scripts/run-tests.mjs): every test file becomes one ES
// module beside the code it shares with the others (esbuild, code splitting), under
// dist/tests/, with source maps back to the TypeScript. Why: loaded through
// tsx, a test file of the app tier pulls in some 1,300 modules one by one, about 2 s of processor
// time before its first test, paid again by each of the suite's ~170 processes; bundled, the same
// imports take about a quarter of that. The server's dependencies are bundled too; test tools, real
// clients and a few packages that find files beside themselves are not (scripts/unbundled-packages.mjs).
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { REQUIRE_BANNER, UNBUNDLED } from './unbundled-packages.mjs';

// Not under node_modules: the test runner skips any path inside one, even when named. One folder per
// run, so runs side by side (npm run test:unit and test:app) never overwrite each other's bundles.
export const BUNDLE_DIR = path.resolve('dist/tests', `run-${process.pid}`);

/**
 * `import.meta` names the bundle's file once bundled; sources that find files beside themselves (a
 * fixture, the package root, the migrations) must keep seeing their own, so it is written out per file.
 */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta.')) return undefined;
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

/** Removes this run's bundles. */
export const removeBundles = () => rmSync(BUNDLE_DIR, { recursive: true, force: true });

/** Bundles `files` (paths relative to the package root); answers each one's bundle, in the same order. */
export async function bundleTests(files) {
  mkdirSync(BUNDLE_DIR, { recursive: true });
  await build({
    entryPoints: files,
    outbase: '.',
    outdir: BUNDLE_DIR,
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external: UNBUNDLED,
    banner: { js: REQUIRE_BANNER },
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [ownImportMeta],
  });
  return files.map((file) => path.join(BUNDLE_DIR, file.replace(/\.ts$/, '.mjs')));
}
