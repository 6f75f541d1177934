// The latest modification time under a directory (skipping build output and dependencies),
// so a build script can tell whether its output is older than any of its sources.
import fs from 'node:fs';
import path from 'node:path';

export function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules') continue;
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : fs.statSync(full).mtimeMs);
  }
  return newest;
}
