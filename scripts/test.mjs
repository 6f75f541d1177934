// `npm test`: the checks (scripts/checks.mjs: lint and format, the type-check, the web app's unit
// tests) and every test file (scripts/run-tests.mjs), side by side. Why side by side: the test files
// keep two cores only about three quarters busy (they wait on browsers, child processes, PostgreSQL
// and timers), and the checks fill that idle time instead of running alone before the first test.
// The checks' report is printed after the tests', so neither interleaves with the other; the exit
// status is the checks' failure, else the tests'.
import { spawn } from 'node:child_process';
import path from 'node:path';

function run(script, stdio) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.resolve(script)], { stdio: ['ignore', stdio, stdio] });
    const output = [];
    if (stdio === 'pipe') {
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
    }
    child.on('error', (error) => resolve({ code: 1, output: [Buffer.from(`${error.message}\n`)] }));
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const [checks, tests] = await Promise.all([run('scripts/checks.mjs', 'pipe'), run('scripts/run-tests.mjs', 'inherit')]);
process.stdout.write(Buffer.concat(checks.output));
process.stdout.write(`\nnpm test: checks ${checks.code === 0 ? 'passed' : 'failed'}, tests ${tests.code === 0 ? 'passed' : 'failed'}\n`);
process.exit(checks.code || tests.code);
