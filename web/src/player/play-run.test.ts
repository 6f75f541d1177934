import { describe, expect, test } from 'vitest';
import { PlayRun } from './play-run.ts';

/** A run whose sends are kept: what the server would be told. */
function run() {
  const sent: [string, number][] = [];
  return { play: new PlayRun((id, playedMs) => sent.push([id, playedMs])), sent };
}

describe('PlayRun', () => {
  test('a play recorded at the rule gets its listening time once it ends: pauses and a seek ahead left out', () => {
    const { play, sent } = run();
    const read = (position: number, playing: boolean, at: number) => play.tracker.update(position, playing, at, 200);
    read(0, true, 0);
    read(60, false, 60_000); // paused at one minute
    read(60, true, 600_000); // ten minutes later, on again
    read(70, true, 610_000);
    read(150, false, 610_100); // a seek ahead, 0.1 s after the last reading
    expect(read(150, true, 611_000)).toBe(false);
    expect(read(180, true, 641_000)).toBe(true); // 60 + 10 + 0.1 + 30 s: half the song
    play.recorded('play-1');
    expect(sent).toEqual([]);
    read(200, false, 661_000); // the song ends
    play.end();
    play.end();
    expect(sent).toEqual([['play-1', 120_100]]);
  });

  test('an end before the play is stored sends once the id arrives; the rate counts; a play never recorded sends nothing', () => {
    const late = run();
    late.play.tracker.update(0, true, 0, 200);
    late.play.tracker.update(150, true, 150_000, 200);
    late.play.end();
    late.play.tracker.update(190, true, 190_000, 200); // after the end: not counted
    late.play.recorded('play-2');
    expect(late.sent).toEqual([['play-2', 150_000]]);

    // At twice the speed, a minute of the song is heard in half a minute.
    const fast = run();
    fast.play.tracker.update(0, true, 0, 200, 2);
    fast.play.tracker.update(60, true, 30_000, 200, 2);
    fast.play.recorded('play-3');
    fast.play.end();
    expect(fast.sent).toEqual([['play-3', 60_000]]);

    const skipped = run();
    skipped.play.tracker.update(0, true, 0, 200);
    skipped.play.tracker.update(20, true, 20_000, 200);
    skipped.play.end();
    expect(skipped.sent).toEqual([]);
  });
});
