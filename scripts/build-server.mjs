// Compiles the server and CLI (src/, tests left out) with tsc into dist/src, which `npm start` and
// bin/earshot.js run: a compiled start is one plain Node process and takes no TypeScript compiler.
// `--if-stale` builds only when a source or the compiler settings are newer than the last build
// (npm start and scripts/run-tests.mjs run it; npm ci builds always).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { newestSource } from './newest-source.mjs';

// tsc rewrites it only when its output changed; it is touched after every build to mark the time.
const stamp = path.resolve('dist/.tsbuildinfo');
const inputs = [path.resolve('src'), path.resolve('tsconfig.json'), path.resolve('tsconfig.build.json')];

const newestInput = () => Math.max(...inputs.map((input) => (fs.statSync(input).isDirectory() ? newestSource(input) : fs.statSync(input).mtimeMs)));
if (process.argv.includes('--if-stale') && fs.existsSync(stamp) && newestInput() <= fs.statSync(stamp).mtimeMs) process.exit(0);

const result = spawnSync(process.execPath, [path.resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
const now = new Date();
fs.utimesSync(stamp, now, now);
