// Builds the web app into web/dist (Vite) and writes a .gz beside each text asset, which the
// server sends to clients that take gzip. `--if-stale` builds only when a source is newer than
// the last build (npm start and npm test run it; npm ci builds always).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { newestSource } from './newest-source.mjs';

const web = path.resolve('web');
const dist = path.join(web, 'dist');
const stamp = path.join(dist, 'index.html');

// The app also bundles pure modules of the server (import readers, listen rules) and its types.
const sources = [web, path.resolve('src')];
if (process.argv.includes('--if-stale') && fs.existsSync(stamp)) {
  const built = fs.statSync(stamp).mtimeMs;
  if (sources.every((dir) => newestSource(dir) <= built)) process.exit(0);
}
const result = spawnSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);

function compress(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) compress(full);
    else if (/\.(js|css|html|svg|json|txt)$/.test(entry.name)) fs.writeFileSync(`${full}.gz`, gzipSync(fs.readFileSync(full), { level: 9 }));
  }
}
compress(dist);
