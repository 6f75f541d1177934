// Runs every *.test.ts under src/ and loadtest/ with Node's test runner, bundled first
// (scripts/bundle-tests.mjs: esbuild, source maps back to the TypeScript).
//   node scripts/run-tests.mjs                 every test file
//   node scripts/run-tests.mjs --tier unit     one tier (unit, app or e2e; see tierOf)
//   node scripts/run-tests.mjs a.test.ts ...   the files named
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BUNDLE_DIR, bundleTests, removeBundles } from './bundle-tests.mjs';

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** What a file imports, as written, relative paths made relative to the package root. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map(([, spec]) =>
    spec.startsWith('.')
      ? path
          .relative('.', path.resolve(path.dirname(file), spec))
          .split(path.sep)
          .join('/')
      : spec,
  );
}

/** Imports that start processes or a browser: the CLI's harness (the real bin), child_process, Chromium. */
const E2E = [/^node:child_process$/, /^playwright-core$/, /^src\/cli\/([\w-]+\.)?testing\.ts$/, /browser-testing\.ts$/];
/** Imports that open a real database (or Redis): the app and database test harnesses, the database itself. */
const APP = [
  /^src\/(app|toolkit\/db)\/([\w-]+\.)?testing\.ts$/,
  /^src\/toolkit\/db\/(database|index)\.ts$/,
  /^src\/app\/server\.ts$/,
  /redis-testing\.ts$/,
  /^pg$/,
];

/**
 * A test file's tier, from what it imports directly: `e2e` starts processes or a browser, `app` runs
 * in this process over a real database, `unit` needs neither (no database, no server).
 */
function tierOf(file) {
  const imports = importsOf(file);
  const uses = (patterns) => imports.some((spec) => patterns.some((pattern) => pattern.test(spec)));
  return uses(E2E) ? 'e2e' : uses(APP) ? 'app' : 'unit';
}

/** The files that took longest, start to end (scripts/slowest-files-reporter.mjs wrote their times). */
function printSlowestFiles(file) {
  if (!existsSync(file)) return;
  const rows = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('\t'))
    .map(([ms, bundle]) => ({ ms: Number(ms), source: path.relative(BUNDLE_DIR, bundle).replace(/\.mjs$/, '.ts') }))
    .sort((a, b) => b.ms - a.ms);
  console.log(`\nslowest test files, start to end (${rows.length} files):`);
  for (const { ms, source } of rows.slice(0, 12)) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${source}`);
}

const args = process.argv.slice(2);
const tierFlag = args.indexOf('--tier');
const tier = tierFlag === -1 ? undefined : args.splice(tierFlag, 2)[1];
if (tierFlag !== -1 && !['unit', 'app', 'e2e'].includes(tier)) {
  console.error(`run-tests: --tier takes unit, app or e2e, not ${tier}`);
  process.exit(2);
}
const named = args.length > 0 ? args : ['src', 'loadtest'].flatMap(testFiles).sort();
// Longest first, so the last minutes are not one long file on one core while the other idles: the
// runner starts files in the order given, and end-to-end files (processes, browsers) are the long
// ones, unit files the short ones that fill the gaps.
const TIER_ORDER = ['e2e', 'app', 'unit'];
/**
 * The files that take a minute or more on two busy cores (the run's "slowest test files"), longest
 * first, ahead of their tiers: the sync test (a 50k-play history on PostgreSQL, mostly waiting on
 * the server) sorted late in the app tier and ran alone for the last three minutes of a CI run.
 */
const LONG_FIRST = [
  'src/core/sync/sync.test.ts',
  'src/adapters/web/a11y.test.ts',
  'src/adapters/web/edits.test.ts',
  'src/core/stats/rollups/rollups.test.ts',
  'src/adapters/web/import.test.ts',
  'src/adapters/web/player.test.ts',
  'src/cli/commands/import.test.ts',
  'src/cli/commands/backup.test.ts',
  'src/core/stats/rollups/queue-marks.test.ts',
  'src/adapters/web/web-app.test.ts',
  'loadtest/loadtest.test.ts',
];
const gone = LONG_FIRST.filter((file) => !existsSync(file));
if (gone.length > 0) {
  console.error(`run-tests: LONG_FIRST names files that are gone: ${gone.join(', ')}`);
  process.exit(2);
}
const rankOf = (file) => {
  const long = LONG_FIRST.indexOf(file.split(path.sep).join('/'));
  return long === -1 ? LONG_FIRST.length + TIER_ORDER.indexOf(tierOf(file)) : long;
};
const files = (tier ? named.filter((file) => tierOf(file) === tier) : named)
  .map((file) => ({ file, rank: rankOf(file) }))
  .sort((a, b) => a.rank - b.rank)
  .map(({ file }) => file);

// Some tests spawn the real bin/earshot.js, which runs the compiled dist/: bring it up to date
// first, so a test file run by hand (`node scripts/run-tests.mjs src/cli/cli.test.ts`) never
// exercises an old build. The tests themselves run bundles of the TypeScript sources.
if (files.some((file) => tierOf(file) === 'e2e')) {
  const build = spawnSync(process.execPath, [path.resolve('scripts/build-server.mjs'), '--if-stale'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// Three files at a time on two cores: many files spend much of their time waiting (on a browser, a
// child process, PostgreSQL, a timer), so a third keeps the cores busy; measured on a clean clone
// with CI=true, 498 s with two, 457 s with three. Set to measure.
const concurrency = process.env.EARSHOT_TEST_CONCURRENCY ?? '3';
const bundles = await bundleTests(files);
const timesFile = path.join(BUNDLE_DIR, 'times.tsv');
const result = spawnSync(
  process.execPath,
  // A file whose tests are done exits even if something it opened is still listening, and no test runs
  // past five minutes (the longest take seconds): either would otherwise hold the whole run until CI's limit.
  [
    '--enable-source-maps',
    // Test processes live seconds, so V8's optimizing compiler for WebAssembly never pays back what it
    // costs: PGlite's ~9 MB module, tiered up in the background of every process that opens a
    // database. Its baseline compiler alone cut the app tier's processor time by about an eighth (eight
    // app files, 82 s against 71 s). The test runner gives each file's process these flags too.
    '--liftoff-only',
    '--test',
    '--test-force-exit',
    '--test-timeout=300000',
    `--test-concurrency=${concurrency}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.resolve('scripts/slowest-files-reporter.mjs')}`,
    '--test-reporter-destination=stdout',
    ...bundles,
  ],
  // Hundreds of accounts are signed up: scrypt at OWASP's N=2^17 would add minutes, so tests hash at 2^12
  // (passwords.test.ts checks the production cost itself). A value already set wins.
  // Every test file is a process of its own: Node's compile cache keeps the V8 code of the bundles and
  // the packages they load on disk, so each file after the first compiles only its own bundle.
  {
    stdio: 'inherit',
    env: {
      EARSHOT_SCRYPT_LOG2_N: '12',
      NODE_COMPILE_CACHE: path.resolve('node_modules/.cache/earshot-node-compile'),
      ...process.env,
      // A larger young generation: test processes (and the servers they start) allocate briskly while
      // their heaps stay small, and scavenging less often cut their processor time by a few percent.
      NODE_OPTIONS: [process.env.NODE_OPTIONS, '--max-semi-space-size=32'].filter(Boolean).join(' '),
      EARSHOT_TEST_TIMES: timesFile,
    },
  },
);
printSlowestFiles(timesFile);
removeBundles();
process.exit(result.status ?? 1);
