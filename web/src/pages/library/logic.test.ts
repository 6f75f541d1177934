import { describe, expect, test } from 'vitest';
import { moveChange, neighbour, PlayTracker, wholeQueue } from './logic.ts';

/**
 * Plays from `from` to `to` seconds in quarter-second readings a quarter of a second apart, the
 * page's clock starting at `clock` ms; the positions of the readings that counted.
 */
function listen(tracker: PlayTracker, from: number, to: number, duration: number, clock = 0): number[] {
  const counted: number[] = [];
  for (let position = from; position <= to; position += 0.25) {
    if (tracker.update(position, true, clock + (position - from) * 1000, duration)) counted.push(position);
  }
  return counted;
}

describe('PlayTracker', () => {
  test('counts a play once half the track has played, once', () => {
    const tracker = new PlayTracker();
    expect(listen(tracker, 0, 200, 200)).toEqual([100]);
    expect(tracker.playedMs).toBe(200_000);
  });
  test('waits at most 4 minutes on a long track', () => {
    expect(listen(new PlayTracker(), 0, 600, 1200)).toEqual([240]);
  });
  test('seeking ahead does not count as listening, nor does a pause', () => {
    const tracker = new PlayTracker();
    expect(listen(tracker, 0, 10, 200)).toEqual([]);
    // A seek to 150 s, a quarter of a second after the last reading: that quarter was heard, the 140 s skipped were not.
    tracker.update(150, false, 10_250, 200);
    expect(listen(tracker, 150, 199, 200, 10_500)).toEqual([]);
    expect(tracker.playedMs).toBe(10_000 + 250 + 49_000);
    // Paused at 199 s for ten minutes: the position does not move, and nothing counts.
    tracker.update(199, false, 60_000, 200);
    tracker.update(199, true, 660_000, 200);
    expect(tracker.playedMs).toBe(59_250);
    // Back to the start (a seek back counts nothing), then 40.75 s more make half.
    expect(listen(tracker, 0, 60, 200, 660_250)).toEqual([40.75]);
  });
  test('never counts a track of 30 seconds or less', () => {
    expect(listen(new PlayTracker(), 0, 30, 30)).toEqual([]);
    expect(listen(new PlayTracker(), 0, 240, Number.NaN)).toEqual([240]);
  });
});

describe('moveChange', () => {
  test('removes from the first index touched and appends the rest in the new order', () => {
    expect(moveChange(['a', 'b', 'c', 'd'], 2, 1)).toEqual({ songIndexToRemove: [1, 2, 3], songIdToAdd: ['c', 'b', 'd'] });
    expect(moveChange(['a', 'b', 'c', 'd'], 0, 1)).toEqual({ songIndexToRemove: [0, 1, 2, 3], songIdToAdd: ['b', 'a', 'c', 'd'] });
  });
  test('a move past either end, or of a song next to its twin, changes nothing', () => {
    expect(moveChange(['a', 'b'], 0, -1)).toEqual({ songIndexToRemove: [], songIdToAdd: [] });
    expect(moveChange(['a', 'a', 'b'], 0, 1)).toEqual({ songIndexToRemove: [], songIdToAdd: [] });
  });
});

describe('neighbour', () => {
  test('follows the playing song when songs before it leave the queue', () => {
    expect(neighbour(['b', 'c', 'd'], { index: 2, id: 'c' }, 1)).toBe(2);
    expect(neighbour(['b', 'c', 'd'], { index: 2, id: 'c' }, -1)).toBe(0);
  });
  test('when the playing song left, next is the one that took its place', () => {
    expect(neighbour(['a', 'c'], { index: 1, id: 'b' }, 1)).toBe(1);
    expect(neighbour(['a', 'c'], { index: 1, id: 'b' }, -1)).toBe(0);
    expect(neighbour(['a', 'b'], { index: 1, id: 'b' }, 1)).toBeNull();
  });
});

describe('wholeQueue', () => {
  /** A queue of `songs` answered `size` at a time, recording the offsets asked for. */
  const pages = (songs: readonly number[], size: number, asked: number[]) => async (offset: number) => {
    asked.push(offset);
    return { songCount: songs.length, offset, entry: songs.slice(offset, offset + size) };
  };
  test('reads page after page until every song is in', async () => {
    const asked: number[] = [];
    const songs = Array.from({ length: 25 }, (_, i) => i);
    expect(await wholeQueue(pages(songs, 10, asked))).toEqual({ songCount: 25, offset: 0, entry: songs });
    expect(asked).toEqual([0, 10, 20]);
  });
  test('one page for a short queue, and stops when the queue shrank meanwhile', async () => {
    const asked: number[] = [];
    expect((await wholeQueue(pages([1, 2], 10, asked))).entry).toEqual([1, 2]);
    const shrinking = async (offset: number) => ({ songCount: 30, offset, entry: offset === 0 ? [1, 2, 3] : [] });
    expect((await wholeQueue(shrinking)).entry).toEqual([1, 2, 3]);
    expect(asked).toEqual([0]);
  });
});
