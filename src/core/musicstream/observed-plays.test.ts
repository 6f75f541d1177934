import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CurrentlyPlaying, RecentPlay } from '../providers/types.ts';
import { observe, pairPlays, type ObservedPlay } from './observed-plays.ts';

const T0 = Date.UTC(2024, 4, 1, 12);
const reading = (id: string, progressMs: number, isPlaying = true): CurrentlyPlaying => ({
  isPlaying,
  progressMs,
  track: { id, title: id, artists: ['Mariza'] },
  device: null,
});
const listed = (id: string, atMs: number): RecentPlay => ({ track: { id, title: id, artists: ['Mariza'] }, playedAt: new Date(atMs) });
const heard = (observed: ObservedPlay[]) => observed.map((play) => [play.trackId, play.clock.playedMs]);

test('the same track from an earlier position is a new play; each listing pairs with the play it ended', () => {
  let seen = observe([], reading('a', 100_000), T0);
  seen = observe(seen, reading('a', 160_000), T0 + 60_000);
  // Played again from the start (repeat): a second play of the same track.
  seen = observe(seen, reading('a', 20_000), T0 + 120_000);
  assert.deepEqual(heard(seen), [
    ['a', 160_000],
    ['a', 20_000],
  ]);
  const { playedMs, observed } = pairPlays(seen, [listed('a', T0 + 100_000)], T0 + 100_000);
  assert.deepEqual(playedMs, [160_000]);
  assert.deepEqual(heard(observed), [['a', 20_000]]);
});

test('nothing playing changes nothing; a seen play whose span is behind the newest listing is let go', () => {
  let seen = observe([], reading('a', 30_000), T0);
  assert.equal(observe(seen, null, T0 + 10_000), seen);
  seen = observe(seen, reading('b', 10_000), T0 + 200_000);
  // 'a' was never listed (too short for the service to count): once plays after its span are read, it cannot be.
  const { playedMs, observed } = pairPlays(seen, [listed('c', T0 + 400_000)], T0 + 400_000);
  assert.deepEqual(playedMs, [undefined]);
  assert.deepEqual(heard(observed), [['b', 10_000]]);
});
