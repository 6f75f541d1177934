/**
 * The nsid tells the file: every operation named `app.svc.<group>.*` is declared in
 * `app.svc.<group>.ts` here (or in the folder `app.svc.<group>/`), and nowhere else.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { register } from 'tsx/esm/api';
import { operations } from '../../app/registry.ts';

const HERE = new URL('.//', import.meta.url);
const isSource = (name: string) => name.endsWith('.ts') && !name.endsWith('.test.ts');

/** The group modules by their prefix: `app.svc.feed.ts` and every source file in a folder `app.svc.library/`. */
function groupModules(): { prefix: string; url: URL }[] {
  return readdirSync(HERE, { withFileTypes: true })
    .filter((entry) => entry.name.startsWith('app.svc.'))
    .flatMap((entry) => {
      if (entry.isDirectory()) {
        const folder = new URL(`${entry.name}/`, HERE);
        return readdirSync(folder)
          .filter(isSource)
          .map((name) => ({ prefix: entry.name, url: new URL(name, folder) }));
      }
      return isSource(entry.name) ? [{ prefix: entry.name.slice(0, -'.ts'.length), url: new URL(entry.name, HERE) }] : [];
    });
}

// The group modules are found by listing this folder and loaded as TypeScript at run time.
register();

/** The operations a module exports (its array of declarations). */
async function declaredIn(url: URL): Promise<{ nsid: string }[]> {
  const exported = Object.values(await import(url.href)) as unknown[];
  return exported
    .filter(Array.isArray)
    .flat()
    .filter((value): value is { nsid: string } => typeof (value as { nsid?: unknown }).nsid === 'string');
}

test('every declared operation is in the app.svc namespace', () => {
  assert.ok(operations.length > 0);
  for (const operation of operations) assert.match(operation.nsid, /^app\.svc\.[A-Za-z]+\.[A-Za-z]+$/, operation.nsid);
});

test('each group file declares only its own nsids, and every operation served is declared in one', async () => {
  const modules = groupModules();
  assert.ok(modules.length > 0);
  const declared: string[] = [];
  for (const { prefix, url } of modules) {
    const nsids = (await declaredIn(url)).map((operation) => operation.nsid);
    assert.ok(nsids.length > 0, `${url.pathname} declares no operation`);
    for (const nsid of nsids)
      assert.ok(nsid.startsWith(`${prefix}.`), `${nsid} is declared in ${url.pathname}, not in ${nsid.split('.').slice(0, 3).join('.')}.ts`);
    declared.push(...nsids);
  }
  assert.deepEqual(
    [...declared].sort(),
    operations.map((operation) => operation.nsid).sort(),
    'the registry serves exactly the operations the group files declare, each once',
  );
});
