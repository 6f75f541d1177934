#!/usr/bin/env node
// Runs the CLI compiled into dist/ by `npm ci` (scripts/build-server.mjs): no TypeScript compiler at run time.
try {
  await import('../dist/src/cli/main.js');
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes('dist/src/cli/main.js')) throw error;
  console.error('earshot: the compiled CLI is missing: run `npm ci` (or `npm run build`) in the Earshot folder first');
  process.exitCode = 1;
}
