import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IModule } from 'dependency-cruiser';
import { folderCycles, layerViolations, unitOf } from '../../scripts/layers.ts';

// The layer rules of .dependency-cruiser.cjs and the folder-cycle rule of scripts/layers.ts, cruised
// through dependency-cruiser's API (type-only imports count): each layer imports only downward
// (cli -> app -> adapters -> core -> toolkit), no module or folder cycle, no test support in
// production code. `npm run lint:layers` prints the same violations.
test('every import keeps to the layer rules', async () => {
  const violations = await layerViolations();
  const lines = violations.map(({ from, to, rule, comment }) => `${from} -> ${to}: ${comment} [${rule}]`);
  assert.equal(violations.length, 0, `${violations.length} import(s) break the layer rules:\n${lines.join('\n')}`);
});

/** Modules as dependency-cruiser describes them, from `source: [imports]`. */
function modules(graph: Record<string, string[]>): IModule[] {
  return Object.entries(graph).map(([source, imports]) => ({ source, dependencies: imports.map((resolved) => ({ resolved })) }) as unknown as IModule);
}

test('a unit is a second-level folder of src/, or a file directly in a layer', () => {
  assert.equal(unitOf('src/core/catalog/enrich/covers.ts'), 'src/core/catalog');
  assert.equal(unitOf('src/toolkit/db/index.ts'), 'src/toolkit/db');
  assert.equal(unitOf('src/core/context.ts'), 'src/core/context.ts');
  assert.equal(unitOf('node_modules/kysely/index.js'), undefined);
});

test('folder cycles are found through other units, and only among checked modules', () => {
  const graph = {
    'src/core/a/one.ts': ['src/core/b/two.ts'],
    'src/core/b/two.ts': ['src/core/c/deep/three.ts'],
    // c closes the cycle a -> b -> c -> a, even though no single file imports back.
    'src/core/c/deep/three.ts': ['src/core/c/four.ts'],
    'src/core/c/four.ts': ['src/core/a/five.ts'],
    'src/core/a/five.ts': [],
    'src/core/d/six.ts': ['src/core/a/one.ts'],
  };
  const all = folderCycles(modules(graph), () => true);
  assert.deepEqual(
    all.map(({ from, to }) => `${from} -> ${to}`),
    ['src/core/a/one.ts -> src/core/b/two.ts', 'src/core/b/two.ts -> src/core/c/deep/three.ts', 'src/core/c/four.ts -> src/core/a/five.ts'],
  );
  assert.deepEqual(all[0]!.units, ['src/core/a', 'src/core/b', 'src/core/c']);
  assert.deepEqual(
    folderCycles(modules(graph), (source) => source !== 'src/core/c/four.ts'),
    [],
  );
});
