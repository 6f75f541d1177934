import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layerViolations } from '../../scripts/layers.ts';

// The layer rules of .dependency-cruiser.cjs and the folder-cycle rule of scripts/layers.ts, cruised
// through dependency-cruiser's API (type-only imports count): each layer imports only downward
// (cli -> app -> adapters -> core -> toolkit), no module or folder cycle, no test support in
// production code. `npm run lint:layers` prints the same violations.
test('every import keeps to the layer rules', async () => {
  const violations = await layerViolations();
  const lines = violations.map(({ from, to, rule, comment }) => `${from} -> ${to}: ${comment} [${rule}]`);
  assert.equal(violations.length, 0, `${violations.length} import(s) break the layer rules:\n${lines.join('\n')}`);
});
