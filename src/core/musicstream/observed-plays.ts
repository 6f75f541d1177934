/**
 * True listening time for streamed plays. The service's recently played list says when a track
 * was played but not for how long; what it reports of the play under way (currently-playing) has
 * its progress. So each poll takes one reading of what is playing, and the plays it saw are kept
 * (on the account row, for whichever process polls next) with the played-time clock of their
 * readings (scrobbling/played-time.ts, the one measure). When a seen play shows up in the list, it
 * is stored with what its readings prove was heard; a play never seen has no played time.
 *
 * Pure: the poller (poller.ts) reads and writes the state and takes the readings' times from the
 * database's clock, the one every process shares.
 */
import type { CurrentlyPlaying, RecentPlay } from '../providers/types.ts';
import { advanceClock, startClock, type PlaybackClock } from '../scrobbling/played-time.ts';

export interface ObservedPlay {
  /** The service's id of the track. */
  trackId: string;
  /** When the play began, estimated at its first reading (that reading's time less its progress), in ms since the epoch. */
  startedAtMs: number;
  clock: PlaybackClock;
}

/**
 * How far a listed play's time may lie outside a seen play's span and still be that play: the
 * service's clock is not the database's, and its time of a play may be the play's start or its end.
 */
const SLACK_MS = 60_000;
/** The most seen plays kept waiting for their listing: the service lists no more than 50 at once. */
const KEPT = 50;

/**
 * The seen plays (oldest first, the last one the latest seen) after a reading of what is playing
 * (null: nothing is), taken at `nowMs`. A reading of the last play's track, at or past its position,
 * goes on its clock; any other track, or the same from an earlier position (played again), is a
 * new play. Of a new play, what had played before its first reading counts as heard: the service's
 * progress is how far into the track the play got. Nothing playing changes nothing.
 */
export function observe(observed: ObservedPlay[], playing: CurrentlyPlaying | null, nowMs: number): ObservedPlay[] {
  const trackId = playing?.track?.id;
  if (!playing || !trackId || playing.progressMs === null) return observed;
  const reading = { playing: playing.isPlaying, positionMs: Math.max(0, playing.progressMs), atMs: nowMs };
  const last = observed.at(-1);
  if (last?.trackId === trackId && reading.positionMs >= last.clock.positionMs) {
    return [...observed.slice(0, -1), { ...last, clock: advanceClock(last.clock, reading) }];
  }
  const startedAtMs = nowMs - reading.positionMs;
  const clock = advanceClock(startClock({ playing: true, positionMs: 0, atMs: startedAtMs }), reading);
  return [...observed, { trackId, startedAtMs, clock }].slice(-KEPT);
}

/**
 * Pairs the listed plays (oldest first) with the seen plays they are: the same track, its listed
 * time within the seen play's span (from its start to the next seen play's start, give or take
 * the slack), the earliest such seen play first. Answers each listed play's played time (undefined
 * when it was never seen, or its readings prove nothing heard) and the seen plays still waiting:
 * those not paired whose span does not end before `readToMs`, the newest listed play read (every
 * play listed later is after it).
 */
export function pairPlays(
  observed: ObservedPlay[],
  plays: RecentPlay[],
  readToMs: number | null,
): { playedMs: (number | undefined)[]; observed: ObservedPlay[] } {
  const spans = observed.map((play, i) => ({ play, endMs: (observed[i + 1]?.startedAtMs ?? Infinity) + SLACK_MS }));
  let waiting = spans;
  const playedMs = plays.map(({ track, playedAt }) => {
    const atMs = playedAt.getTime();
    const seen = waiting.find((span) => span.play.trackId === track.id && atMs >= span.play.startedAtMs - SLACK_MS && atMs <= span.endMs);
    if (!seen) return undefined;
    waiting = waiting.filter((span) => span !== seen);
    const heard = Math.round(seen.play.clock.playedMs);
    return heard > 0 ? heard : undefined;
  });
  return { playedMs, observed: waiting.filter((span) => readToMs === null || span.endMs >= readToMs).map((span) => span.play) };
}
