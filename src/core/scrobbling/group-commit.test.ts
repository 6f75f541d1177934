import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupCommit } from './group-commit.ts';

interface Call {
  name: string;
  size: number;
}

/**
 * A store that, like a transaction, first waits for its connection (granted by `grant`), then
 * takes its calls and records them as a group, and answers once `release` is called.
 */
function recordingStore(fails: (calls: readonly Call[]) => boolean = () => false) {
  const groups: string[][] = [];
  const connecting: (() => void)[] = [];
  const pending: (() => void)[] = [];
  const inFlight = { now: 0, max: 0 };
  const store = async (take: () => readonly Call[]) => {
    inFlight.max = Math.max(inFlight.max, ++inFlight.now);
    await new Promise<void>((resolve) => connecting.push(resolve));
    const calls = take();
    groups.push(calls.map(({ name }) => name));
    return new Promise<string[]>((resolve, reject) => {
      pending.push(() => {
        inFlight.now--;
        if (fails(calls)) reject(new Error(`refused ${calls.map(({ name }) => name)}`));
        else resolve(calls.map(({ name }) => `stored ${name}`));
      });
    });
  };
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  const grant = async () => {
    while (connecting.length > 0) connecting.shift()!();
    await turn();
  };
  /** Grants every waiting connection, then answers every group, then lets the next groups start and connect. */
  const release = async () => {
    await grant();
    while (pending.length > 0) pending.shift()!();
    await turn();
    await grant();
  };
  return { groups, store, grant, release, inFlight };
}

const call = (name: string, size = 1): Call => ({ name, size });

test('a lone call is stored at once, in a group of its own', async () => {
  const { groups, store, release } = recordingStore();
  const group = new GroupCommit(store, { capacity: 20, inFlight: 1 });
  const answer = group.submit(call('a'));
  await release();
  assert.deepEqual(groups, [['a']]);
  assert.equal(await answer, 'stored a');
});

test('calls arriving while a group waits for its connection join it', async () => {
  const { groups, store, release } = recordingStore();
  const group = new GroupCommit(store, { capacity: 20, inFlight: 1 });
  const answers = ['a', 'b', 'c'].map((name) => group.submit(call(name)));
  await release();
  assert.deepEqual(groups, [['a', 'b', 'c']]);
  assert.deepEqual(await Promise.all(answers), ['stored a', 'stored b', 'stored c']);
});

test('calls arriving while a group is stored wait and go together in the next, each answered with its own outcome', async () => {
  const { groups, store, grant, release } = recordingStore();
  const group = new GroupCommit(store, { capacity: 20, inFlight: 1 });
  const first = group.submit(call('a'));
  await grant();
  const answers = ['b', 'c', 'd'].map((name) => group.submit(call(name)));
  let settled = 0;
  for (const answer of [first, ...answers]) void answer.then(() => settled++);
  await release();
  // b, c and d are answered only once their own group has been stored, not with a's.
  assert.equal(settled, 1);
  assert.deepEqual(groups, [['a'], ['b', 'c', 'd']]);
  await release();
  assert.deepEqual(await Promise.all([first, ...answers]), ['stored a', 'stored b', 'stored c', 'stored d']);
});

test('a group holds at most `capacity` listens, and `inFlight` groups are stored at once', async () => {
  const { groups, store, release, inFlight } = recordingStore();
  const group = new GroupCommit(store, { capacity: 4, inFlight: 2 });
  const answers = [call('a'), call('b', 2), call('c', 3), call('d'), call('e', 2), call('f', 9)].map((c) => group.submit(c));
  let settled = 0;
  for (const answer of answers) void answer.then(() => settled++);
  for (let round = 0; round < 6 && settled < answers.length; round++) {
    await release();
    assert.ok(inFlight.max <= 2, `${inFlight.max} groups at once`);
  }
  // Larger than a group: alone.
  assert.deepEqual(groups, [['a', 'b'], ['c', 'd'], ['e'], ['f']]);
  assert.equal(inFlight.max, 2);
  assert.equal((await Promise.all(answers)).length, 6);
});

test('a group that fails is stored again call by call, so only the call at fault fails', async () => {
  const { groups, store, release } = recordingStore((calls) => calls.some(({ name }) => name === 'bad'));
  const group = new GroupCommit(store, { capacity: 20, inFlight: 1 });
  const answers = ['a', 'bad', 'b'].map((name) => group.submit(call(name)).catch((error: Error) => error.message));
  await release();
  await release();
  await release();
  assert.deepEqual(groups, [['a', 'bad', 'b'], ['a'], ['bad'], ['b']]);
  assert.deepEqual(await Promise.all(answers), ['stored a', 'refused bad', 'stored b']);
});
