/**
 * The layer rules of Earshot's src/: each layer imports only downward, cli -> app -> adapters -> core -> toolkit,
 * with no cycles, and test support stays out of production code. Type-only imports count (tsPreCompilationDeps).
 * `npm run lint:layers` prints every violation; src/app/layers.test.ts fails the suite on any, and
 * scripts/layers.ts adds the one rule dependency-cruiser cannot express (cycles between folders).
 *
 * Tests (*.test.ts) and test support may import anything (a core test starts the whole app with
 * src/app/testing.ts); the layer rules bind production code. Test support is a module whose file is named
 * `testing.ts` or ends in `-testing.ts` (fixtures, fakes and helpers only tests import); scripts/build-server.mjs
 * leaves those and *.test.ts out of dist/.
 */
const TEST_FILE = '\\.test\\.ts$';
const TEST_SUPPORT = '(^|/|-)testing\\.ts$';
const TESTS = `${TEST_FILE}|${TEST_SUPPORT}`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'toolkit-imports-no-domain',
      comment:
        'The toolkit (src/toolkit) is the bottom layer: config, logging, errors and the database are shared by every domain, ' +
        'so they may import only other toolkit modules, never core, adapters, app or cli.',
      severity: 'error',
      from: { path: '^src/toolkit/', pathNot: TESTS },
      to: { path: '^src/', pathNot: '^src/toolkit/' },
    },
    {
      name: 'core-imports-no-protocol',
      comment:
        'The core (src/core) holds the domains and knows no protocol: it never imports an adapter (src/adapters), ' +
        'the composition root (src/app) or the CLI (src/cli); an adapter maps core types and errors to its protocol instead.',
      severity: 'error',
      from: { path: '^src/core/', pathNot: TESTS },
      to: { path: '^src/(adapters|app|cli)/' },
    },
    {
      name: 'adapters-import-no-host',
      comment:
        'Adapters (src/adapters) speak a protocol over the core; they never import the composition root (src/app) or the CLI (src/cli): ' +
        'the app wires adapters together, not the other way round.',
      severity: 'error',
      from: { path: '^src/adapters/', pathNot: TESTS },
      to: { path: '^src/(app|cli)/' },
    },
    {
      name: 'app-imports-no-cli',
      comment: 'The composition root (src/app) starts the hosts the CLI (src/cli) runs; it never imports the CLI.',
      severity: 'error',
      from: { path: '^src/app/', pathNot: TESTS },
      to: { path: '^src/cli/' },
    },
    {
      name: 'no-test-support-in-production',
      comment:
        'Production code never imports test support (files named testing.ts or *-testing.ts, and *.test.ts): ' +
        'test support is left out of dist/, and fakes must not leak into a running server.',
      severity: 'error',
      from: { path: '^src/', pathNot: TESTS },
      to: { path: TESTS },
    },
    {
      name: 'no-file-cycles',
      comment:
        'No module imports itself through others (type-only imports count): a cycle hides which module owns what; ' +
        'move the shared piece into a module both import.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: the layers apply to types as much as to values.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
