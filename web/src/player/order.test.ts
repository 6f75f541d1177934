import { describe, expect, test } from 'vitest';
import { nextRepeat, playOrder, preloadDue, preloadIndex, stepIn, tooShortToCount } from './order.ts';

/** A fixed sequence in place of Math.random, so a shuffle is the same every run. */
const sequence = (...values: number[]) => {
  let at = 0;
  return () => values[at++ % values.length]!;
};

describe('playOrder', () => {
  test('is the queue order without shuffle', () => {
    expect(playOrder(4, false, 2)).toEqual([0, 1, 2, 3]);
  });

  test('shuffled, holds every index once and starts with the playing song', () => {
    const order = playOrder(6, true, 4, sequence(0.1, 0.9, 0.5, 0.3, 0.7));
    expect(order[0]).toBe(4);
    expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(order).not.toEqual([4, 0, 1, 2, 3, 5]);
  });

  test('shuffled with nothing playing, or an empty queue', () => {
    expect([...playOrder(3, true, null, sequence(0.5))].sort()).toEqual([0, 1, 2]);
    expect(playOrder(0, true, null)).toEqual([]);
  });
});

describe('stepIn', () => {
  const order = [2, 0, 3, 1];

  test('moves along the play order, stopping at either end without repeat', () => {
    expect(stepIn(order, 2, 1, 'off')).toBe(0);
    expect(stepIn(order, 3, -1, 'off')).toBe(0);
    expect(stepIn(order, 1, 1, 'off')).toBeNull();
    expect(stepIn(order, 2, -1, 'off')).toBeNull();
  });

  test('repeat all wraps around both ways', () => {
    expect(stepIn(order, 1, 1, 'all')).toBe(2);
    expect(stepIn(order, 2, -1, 'all')).toBe(1);
  });

  test('repeat one plays an ended song again, but Next still moves on', () => {
    expect(stepIn(order, 3, 1, 'one', true)).toBe(3);
    expect(stepIn(order, 3, 1, 'one')).toBe(1);
    expect(stepIn(order, 1, 1, 'one')).toBe(2);
  });

  test('a song no longer in the order has no neighbour', () => {
    expect(stepIn(order, 7, 1, 'all')).toBeNull();
  });
});

test('repeat cycles off → all → one → off', () => {
  expect([nextRepeat('off'), nextRepeat('all'), nextRepeat('one')]).toEqual(['all', 'one', 'off']);
});

test('tracks of 30 seconds or less never count; longer or unknown ones can', () => {
  expect(tooShortToCount(12)).toBe(true);
  expect(tooShortToCount(30)).toBe(true);
  expect(tooShortToCount(31)).toBe(false);
  expect(tooShortToCount(undefined)).toBe(false);
});

describe('preloadIndex', () => {
  const order = [2, 0, 3, 1];

  test('is the song that plays when this one ends, in play order', () => {
    expect(preloadIndex(order, 2, 'off')).toBe(0);
    expect(preloadIndex(order, 3, 'all')).toBe(1);
  });

  test('wraps under repeat all, and is none at the end without repeat', () => {
    expect(preloadIndex(order, 1, 'all')).toBe(2);
    expect(preloadIndex(order, 1, 'off')).toBeNull();
  });

  test('is none under repeat one (the same song plays again) or for a song not in the order', () => {
    expect(preloadIndex(order, 3, 'one')).toBeNull();
    expect(preloadIndex(order, 7, 'all')).toBeNull();
  });
});

describe('preloadDue', () => {
  test('within 15 s of the end', () => {
    expect(preloadDue(100, 120, 110)).toBe(false);
    expect(preloadDue(105, 120, 110)).toBe(true);
  });

  test('once the song is wholly loaded, however early', () => {
    expect(preloadDue(2, 200, 199.8)).toBe(true);
    expect(preloadDue(2, 200, 150)).toBe(false);
  });

  test('never for an unknown length', () => {
    expect(preloadDue(500, undefined, 500)).toBe(false);
    expect(preloadDue(5, Number.NaN, 5)).toBe(false);
  });
});
