/** The player bar's pure logic: the order it plays the queue in (shuffle), where it goes next (repeat), and which tracks never count. */
import { MIN_TRACK_MS } from '../../../src/core/scrobbling/listen-rules.ts';

export type Repeat = 'off' | 'all' | 'one';

export const REPEATS: readonly Repeat[] = ['off', 'all', 'one'];

/** The repeat mode after `repeat` when its button is pressed: off → all → one → off. */
export const nextRepeat = (repeat: Repeat): Repeat => REPEATS[(REPEATS.indexOf(repeat) + 1) % REPEATS.length]!;

/** Queue indexes in play order: as queued, or shuffled with `first` (the playing song) kept first. */
export function playOrder(length: number, shuffle: boolean, first: number | null, random: () => number = Math.random): number[] {
  const order = Array.from({ length }, (_, index) => index);
  if (!shuffle) return order;
  for (let i = length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  if (first === null || first < 0 || first >= length) return order;
  return [first, ...order.filter((index) => index !== first)];
}

/**
 * The queue index to play after (step 1) or before (step -1) `current` in `order`, or null at
 * either end. Repeat all wraps around; a song ending under repeat one plays again, while Next and
 * Previous still move (as players do).
 */
export function stepIn(order: readonly number[], current: number, step: 1 | -1, repeat: Repeat, ended = false): number | null {
  if (ended && repeat === 'one') return current;
  const at = order.indexOf(current);
  if (at === -1) return null;
  const target = at + step;
  if (target >= 0 && target < order.length) return order[target]!;
  return repeat === 'off' || order.length === 0 ? null : order[(target + order.length) % order.length]!;
}

/** Last.fm's rule, which Earshot applies too: a track of 30 seconds or less is never recorded, however often it plays. */
export const tooShortToCount = (durationSeconds: number | undefined): boolean =>
  durationSeconds !== undefined && durationSeconds > 0 && durationSeconds * 1000 <= MIN_TRACK_MS;

/**
 * The queue index to load ahead while `current` plays: the one that plays when it ends, or null when
 * none does or it is the same song again (repeat one plays the loaded song over).
 */
export function preloadIndex(order: readonly number[], current: number, repeat: Repeat): number | null {
  const after = stepIn(order, current, 1, repeat, true);
  return after === current ? null : after;
}

/** Loading the next song starts this close to the current one's end, which gives it time on any connection. */
export const PRELOAD_BEFORE_END_SECONDS = 15;

/** Whether to load the next song now: the current one is near its end, or is wholly loaded (so the network is free). Unknown length: not yet. */
export function preloadDue(position: number, duration: number | undefined, bufferedUntil: number): boolean {
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) return false;
  return duration - position <= PRELOAD_BEFORE_END_SECONDS || bufferedUntil >= duration - 0.5;
}
