import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupCommit } from './group-commit.ts';

interface Call {
  name: string;
  size: number;
}

/** A store that records each group it is given and answers once `release` is called. */
function recordingStore(fails: (calls: readonly Call[]) => boolean = () => false) {
  const groups: string[][] = [];
  const pending: (() => void)[] = [];
  const store = (calls: readonly Call[]) =>
    new Promise<string[]>((resolve, reject) => {
      groups.push(calls.map(({ name }) => name));
      pending.push(() => (fails(calls) ? reject(new Error(`refused ${calls.map(({ name }) => name)}`)) : resolve(calls.map(({ name }) => `stored ${name}`))));
    });
  const release = async () => {
    while (pending.length > 0) pending.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { groups, store, release };
}

const call = (name: string, size = 1): Call => ({ name, size });

test('a lone call is stored at once, in a group of its own', async () => {
  const { groups, store, release } = recordingStore();
  const group = new GroupCommit(store, { capacity: 20, inFlight: 1 });
  const answer = group.submit(call('a'));
  assert.deepEqual(groups, [['a']]);
  await release();
  assert.equal(await answer, 'stored a');
});

test('calls arriving while a group is stored wait and go together in the next, each answered with its own outcome', async () => {
  const { groups, store, release } = recordingStore();
  const group = new GroupCommit(store, { capacity: 20, inFlight: 1 });
  const answers = ['a', 'b', 'c', 'd'].map((name) => group.submit(call(name)));
  assert.deepEqual(groups, [['a']]);
  let settled = 0;
  for (const answer of answers) void answer.then(() => settled++);
  await release();
  // b, c and d are answered only once their own group has been stored, not with a's.
  assert.equal(settled, 1);
  assert.deepEqual(groups, [['a'], ['b', 'c', 'd']]);
  await release();
  assert.deepEqual(await Promise.all(answers), ['stored a', 'stored b', 'stored c', 'stored d']);
});

test('a group holds at most `capacity` listens, and `inFlight` groups are stored at once', async () => {
  const { groups, store, release } = recordingStore();
  const group = new GroupCommit(store, { capacity: 4, inFlight: 2 });
  const answers = [call('a'), call('b'), call('c', 3), call('d'), call('e', 2), call('f', 9)].map((c) => group.submit(c));
  assert.deepEqual(groups, [['a'], ['b']]);
  await release();
  assert.deepEqual(groups, [['a'], ['b'], ['c', 'd'], ['e']]);
  await release();
  // Larger than a group: alone.
  assert.deepEqual(groups.at(-1), ['f']);
  await release();
  assert.equal((await Promise.all(answers)).length, 6);
});

test('a group that fails is stored again call by call, so only the call at fault fails', async () => {
  const { groups, store, release } = recordingStore((calls) => calls.some(({ name }) => name === 'bad'));
  const group = new GroupCommit(store, { capacity: 20, inFlight: 1 });
  const answers = ['a', 'b', 'bad', 'c'].map((name) => group.submit(call(name)).catch((error: Error) => error.message));
  await release();
  await release();
  await release();
  assert.deepEqual(groups, [['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  assert.deepEqual(await Promise.all(answers), ['stored a', 'stored b', 'refused bad', 'stored c']);
});
