/**
 * How long a play was actually listened to, from readings of where the playback is: the one measure
 * behind Subsonic's reportPlayback sessions (core/library/playback.ts, readings are the client's
 * reports on the database's clock) and the web player (readings are its audio element's, on the
 * page's clock). Pure, so the web app runs the same code.
 *
 * Between two readings the play counts the position's advance, but never more than the time that
 * passed at the playback rate: a seek forward moves the position without anyone hearing the music
 * skipped, and time spent paused (or buffering) does not move it at all. A seek back counts nothing
 * for its interval, since what was heard before it cannot be told from the readings.
 */

export interface PlaybackReading {
  /** Whether the position moves from this reading on (playing, not paused, stopped or buffering). */
  playing: boolean;
  positionMs: number;
  /** When the reading was taken, in milliseconds on the measurer's own clock. */
  atMs: number;
  /** Playback speed multiplier; 1 when not said. */
  rate?: number | undefined;
}

export interface PlaybackClock {
  playing: boolean;
  positionMs: number;
  atMs: number;
  rate: number;
  /** Listened so far, in milliseconds of the track (fractional: rounded where it is stored). */
  playedMs: number;
}

/** A play's clock from its first reading: nothing heard yet. */
export const startClock = (reading: PlaybackReading): PlaybackClock => ({ ...reading, rate: reading.rate ?? 1, playedMs: 0 });

/** The clock after one more reading. */
export function advanceClock(clock: PlaybackClock, reading: PlaybackReading): PlaybackClock {
  const heard = clock.playing ? Math.max(0, Math.min(reading.positionMs - clock.positionMs, (reading.atMs - clock.atMs) * clock.rate)) : 0;
  return { ...reading, rate: reading.rate ?? clock.rate, playedMs: clock.playedMs + heard };
}
