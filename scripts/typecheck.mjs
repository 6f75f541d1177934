// Type-checks the server (with its tests, scripts and benchmarks) and the web app: two tsc
// projects, run side by side since neither needs the other (each takes a core for ~10 s).
import { spawn } from 'node:child_process';
import path from 'node:path';

const tsc = path.resolve('node_modules/typescript/bin/tsc');
const check = (args) =>
  new Promise((resolve) =>
    spawn(process.execPath, [tsc, '--noEmit', ...args], { stdio: 'inherit' })
      .on('error', () => resolve(1))
      .on('exit', (code) => resolve(code ?? 1)),
  );
const codes = await Promise.all([check([]), check(['-p', 'web'])]);
process.exit(codes.find((code) => code !== 0) ?? 0);
