// Runs every *.test.ts under src/ and loadtest/ with Node's test runner (tsx loads TypeScript).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

// Some tests spawn the real bin/earshot.js, which runs the compiled dist/: bring it up to date
// first, so a test file run by hand (`node scripts/run-tests.mjs src/cli/cli.test.ts`) never
// exercises an old build. The tests themselves load the TypeScript sources.
const build = spawnSync(process.execPath, [path.resolve('scripts/build-server.mjs'), '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const only = process.argv.slice(2);
const files = only.length > 0 ? only : ['src', 'loadtest'].flatMap(testFiles).sort();
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
