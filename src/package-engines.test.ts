import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import semver from 'semver';
import { PACKAGE_ROOT } from './toolkit/package-root.ts';

const read = (file: string) => JSON.parse(fs.readFileSync(`${PACKAGE_ROOT}/${file}`, 'utf8'));

/** The first release of each Node.js LTS line package.json declares: a dependency must run on all of them. */
const LTS_FLOORS = ['22.13.0', '24.0.0'];

describe('Node.js versions', () => {
  const declared: string = read('package.json').engines.node;

  it('declares the LTS lines users run (22 and 24) and nothing older', () => {
    for (const version of LTS_FLOORS) assert.ok(semver.satisfies(version, declared), `${version} is outside engines.node ${declared}`);
    assert.ok(!semver.satisfies('20.19.0', declared), 'Node.js 20 reached end of life in April 2026');
  });

  it('every installed package accepts every declared LTS line', () => {
    const refusals: string[] = [];
    for (const [location, entry] of Object.entries<{ engines?: { node?: string }; optional?: boolean }>(read('package-lock.json').packages)) {
      const range = entry.engines?.node;
      // Platform binaries (esbuild's, rolldown's) are optional: npm installs only the one that fits.
      if (!range || !location || entry.optional) continue;
      for (const version of LTS_FLOORS) {
        if (!semver.satisfies(version, range)) refusals.push(`${location.replace(/^.*node_modules\//, '')} wants node ${range}, refusing ${version}`);
      }
    }
    assert.deepEqual(refusals, []);
  });
});
