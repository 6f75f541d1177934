// The checks npm test runs before the tests, side by side (they need nothing from each other): Biome's
// lint and format, the type-check, and the web app's unit tests. Each one's output is printed whole
// when it ends, so the three never interleave; the exit status is the first failure's.
import { spawn } from 'node:child_process';
import path from 'node:path';

const bin = (name) => path.resolve('node_modules/.bin', name);
const CHECKS = [
  { name: 'lint and format (biome check)', command: bin('biome'), args: ['check', '--error-on-warnings'] },
  { name: 'type-check (tsc -b web)', command: process.execPath, args: [path.resolve('scripts/typecheck.mjs')] },
  { name: "the web app's unit tests (vitest)", command: bin('vitest'), args: ['run', '--config', 'web/vite.config.ts'] },
];

function run({ name, command, args }) {
  return new Promise((resolve) => {
    const output = [];
    const child = spawn(command, args, { env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' } });
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    const finish = (code) => {
      process.stdout.write(`\n> ${name}: ${code === 0 ? 'passed' : `failed (${code})`}\n`);
      process.stdout.write(Buffer.concat(output));
      resolve(code);
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
      finish(1);
    });
    child.on('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all(CHECKS.map(run));
process.exit(codes.find((code) => code !== 0) ?? 0);
