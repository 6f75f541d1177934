import assert from 'node:assert/strict';
import { test } from 'node:test';
import { advanceClock, startClock, type PlaybackReading } from './played-time.ts';

const played = (readings: PlaybackReading[]) => readings.slice(1).reduce(advanceClock, startClock(readings[0]!)).playedMs;

test('the time listened: the advance while playing, never more than the time that passed at the rate', () => {
  assert.equal(
    played([
      { playing: false, positionMs: 0, atMs: 0 }, // starting: buffering for 3 s
      { playing: true, positionMs: 0, atMs: 3_000 },
      { playing: false, positionMs: 30_000, atMs: 33_000 }, // paused for a minute
      { playing: true, positionMs: 30_000, atMs: 93_000 },
      { playing: true, positionMs: 120_000, atMs: 103_000 }, // 10 s, then a seek ahead
      { playing: true, positionMs: 20_000, atMs: 113_000 }, // 10 s, then a seek back: nothing told
      { playing: false, positionMs: 50_000, atMs: 143_000 },
    ]),
    30_000 + 10_000 + 30_000,
  );
  assert.equal(
    played([
      { playing: true, positionMs: 0, atMs: 0, rate: 1.5 },
      { playing: false, positionMs: 90_000, atMs: 60_000 },
    ]),
    90_000,
    'a minute at 1.5× is 90 s of the song',
  );
});
