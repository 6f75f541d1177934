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
  // Hundreds of accounts are signed up: scrypt at OWASP's N=2^17 would add minutes, so tests hash at 2^12
  // (passwords.test.ts checks the production cost itself). A value already set wins.
  { stdio: 'inherit', env: { EARSHOT_SCRYPT_LOG2_N: '12', ...process.env } },
);
process.exit(result.status ?? 1);
