/**
 * Playback sessions: OpenSubsonic's reportPlayback, where a client reports where it is in a song
 * (starting, playing, paused, stopped, with the position) and the server decides whether it was a
 * play and how long it was listened to (core/scrobbling/played-time.ts measures it).
 *
 * A session lives in the user's now_playing row, the record of what they are playing now, under
 * `playback` in its `submitted` record: any server process sees it, and the row's lock orders two
 * reports that arrive together. So a user has one session at a time, as they have one now-playing.
 * Times are the database's (now()), the one clock every process shares.
 *
 * `starting` (a song begins, or begins again) and `playing` set now-playing; `paused` keeps it; the
 * session ends with `stopped`, or when a report or a now-playing names another song, or `starting`
 * comes again. An ended session is a play if it passes the scrobble rule (listen-rules.ts), unless
 * the client said ignoreScrobble, with its played time. The play's time is the session's start,
 * and a `scrobble` of the same song during the session (or just after it) is given that same time
 * (sessionPlayTime), so the one duplicate rule (user, song, time) keeps the two one play, and the
 * played time lands on it whichever came first.
 */
import { sql, type Transaction } from 'kysely';
import { databaseNowMs, inTransaction, type Database, type DB } from '../../toolkit/db/index.ts';
import type { AppContext } from '../context.ts';
import { ingestListens, NOW_PLAYING_FALLBACK_MS, nowPlayingStored } from '../scrobbling/ingest.ts';
import { playCounts } from '../scrobbling/listen-rules.ts';
import { advanceClock, startClock, type PlaybackClock, type PlaybackReading } from '../scrobbling/played-time.ts';
import { catalogMetadata } from './catalog-metadata.ts';
import { knownSongs } from './known-ids.ts';

export const PLAYBACK_STATES = ['starting', 'playing', 'paused', 'stopped'] as const;
export type PlaybackState = (typeof PLAYBACK_STATES)[number];

export interface PlaybackReport {
  songId: string;
  positionMs: number;
  state: PlaybackState;
  /** Playback speed multiplier. */
  rate: number;
  /** Now-playing only: the session records no play. */
  ignoreScrobble: boolean;
}

/** A session as its now_playing row keeps it. */
interface Session extends PlaybackClock {
  state: PlaybackState;
  ignoreScrobble: boolean;
}

interface SessionRow {
  trackId: string;
  startedAt: Date;
  durationMs: number | null;
  session: Session;
  submitted: Record<string, unknown>;
}

/** How far a scrobble's time may lie before the session's start, or after its end, and still be its play (clocks differ). */
const SCROBBLE_SLACK_MS = 60_000;

/** The time a session's play is stored at: its start, in whole seconds as the scrobbling protocols name plays. */
const playTime = (startedAt: Date) => new Date(Math.floor(startedAt.getTime() / 1000) * 1000);

const readingOf = (report: Pick<PlaybackReport, 'state' | 'positionMs' | 'rate'>, atMs: number): PlaybackReading => ({
  // `starting` does not move the clock yet: the song may still be buffering.
  playing: report.state === 'playing',
  positionMs: report.positionMs,
  atMs,
  rate: report.rate,
});

/** How long the session's song has left to play from its last report, at its rate (unknown length: now-playing's usual span). */
const remainingMs = ({ durationMs, session }: SessionRow) =>
  durationMs === null ? NOW_PLAYING_FALLBACK_MS : Math.max(0, durationMs - session.positionMs) / session.rate;

/**
 * How long after a playing session's planned end (its song's end at its rate) it is abandoned: the
 * player went away without a word, and the session is taken no further than its last report
 * (OpenSubsonic: servers stop listening 30 minutes after the planned end).
 */
const ABANDONED_AFTER_MS = 30 * 60_000;

/**
 * The clock read now: where a session stands when it ends without a report of its own, its
 * position estimated at its rate up to the song's end, unless it was abandoned.
 */
function estimatedEnd(row: SessionRow, nowMs: number): Session {
  const { session } = row;
  const runsOn = session.playing && nowMs <= session.atMs + remainingMs(row) + ABANDONED_AFTER_MS;
  const estimate = session.positionMs + (runsOn ? (nowMs - session.atMs) * session.rate : 0);
  const positionMs = row.durationMs === null ? estimate : Math.min(estimate, Math.max(row.durationMs, session.positionMs));
  return { ...advanceClock(session, { playing: false, positionMs, atMs: nowMs }), state: 'stopped', ignoreScrobble: session.ignoreScrobble };
}

type Tx = Transaction<DB>;

/** The user's session (open or ended) and the database's time, the row locked until the transaction ends. */
async function lockedSession(tx: Tx, userId: string): Promise<{ row: SessionRow | null; nowMs: number }> {
  const nowMs = await databaseNowMs(tx);
  const found = await tx
    .selectFrom('now_playing as np')
    .innerJoin('tracks as t', 't.id', 'np.track_id')
    .select(['np.track_id', 'np.started_at', 'np.submitted', 't.duration'])
    .where('np.user_id', '=', userId)
    .forUpdate('np')
    .executeTakeFirst();
  const session = found?.submitted.playback as Session | undefined;
  const row =
    found && session ? { trackId: found.track_id, startedAt: found.started_at, durationMs: found.duration, session, submitted: found.submitted } : null;
  return { row, nowMs };
}

/** Writes the session into its now_playing row; an ended one is no longer now playing. */
async function storeSession(tx: Tx, userId: string, row: SessionRow, fresh: boolean): Promise<void> {
  const { session } = row;
  const values = {
    track_id: row.trackId,
    submitted: JSON.stringify({ ...row.submitted, playback: session }),
    expires_at: session.state === 'stopped' ? sql<Date>`now()` : sql<Date>`now() + ${`${Math.round(remainingMs(row))} milliseconds`}::interval`,
    ...(fresh && { started_at: sql<Date>`now()` }),
  };
  await tx
    .insertInto('now_playing')
    .values({ user_id: userId, started_at: sql<Date>`now()`, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}

/**
 * Records an ended session: a play at the session's start when it passes the scrobble rule (and
 * the client did not say ignoreScrobble), and its played time on the play of that time, which the
 * client may have scrobbled itself.
 */
async function recordSession(ctx: AppContext, userId: string, row: SessionRow): Promise<void> {
  const listenedAt = playTime(row.startedAt);
  const playedMs = Math.round(row.session.playedMs);
  if (!row.session.ignoreScrobble && playCounts(playedMs, row.durationMs ?? undefined)) {
    const [metadata] = await catalogMetadata(ctx.db, [row.trackId]);
    const { id, client } = row.submitted;
    await ingestListens(ctx, userId, [{ ...metadata!, listenedAt, playedMs, submitted: { id, client } }], 'subsonic');
  }
  await ctx.db
    .updateTable('scrobbles')
    .set({ played_ms: playedMs })
    .where('user_id', '=', userId)
    .where('track_id', '=', row.trackId)
    .where('listened_at', '=', listenedAt)
    .where(sql<boolean>`played_ms is distinct from ${playedMs}`)
    .execute();
}

/** Applies one reportPlayback of the user's; `client` is the Subsonic client's name. */
export async function reportPlayback(ctx: AppContext, userId: string, report: PlaybackReport, client: string): Promise<void> {
  const [trackId] = await knownSongs(ctx.db, [report.songId]);
  const { ended, started } = await inTransaction(ctx.db, async (tx) => {
    const { row, nowMs } = await lockedSession(tx, userId);
    const open = row && row.session.state !== 'stopped' ? row : null;
    const continues = open !== null && open.trackId === trackId && report.state !== 'starting';
    const reading = readingOf(report, nowMs);
    if (continues) {
      const session = { ...advanceClock(open.session, reading), state: report.state, ignoreScrobble: report.ignoreScrobble };
      const now = { ...open, session };
      await storeSession(tx, userId, now, false);
      return { ended: report.state === 'stopped' ? now : null, started: null };
    }
    const ended = open && { ...open, session: estimatedEnd(open, nowMs) };
    // A stop of a song with no session: nothing was measured, and it is not playing.
    if (report.state === 'stopped') {
      if (ended) await storeSession(tx, userId, ended, false);
      return { ended, started: null };
    }
    const track = await tx.selectFrom('tracks').select('duration').where('id', '=', trackId!).executeTakeFirstOrThrow();
    const session = { ...startClock(reading), state: report.state, ignoreScrobble: report.ignoreScrobble };
    await storeSession(
      tx,
      userId,
      { trackId: trackId!, startedAt: new Date(nowMs), durationMs: track.duration, session, submitted: { id: trackId, client } },
      true,
    );
    return { ended, started: trackId! };
  });
  if (started) nowPlayingStored(ctx, userId, started);
  if (ended) await recordSession(ctx, userId, ended);
}

/**
 * Before a now-playing from elsewhere (scrobble with submission=false) replaces the session's row:
 * an open session of another song ends and is recorded. True when the session is this song's and
 * open, so the now-playing is already there and the session goes on.
 */
export async function keepsSession(ctx: AppContext, userId: string, trackId: string): Promise<boolean> {
  const { ended, keeps } = await inTransaction(ctx.db, async (tx) => {
    const { row, nowMs } = await lockedSession(tx, userId);
    if (!row || row.session.state === 'stopped') return { ended: null, keeps: false };
    if (row.trackId === trackId) return { ended: null, keeps: true };
    const ended = { ...row, session: estimatedEnd(row, nowMs) };
    await storeSession(tx, userId, ended, false);
    return { ended, keeps: false };
  });
  if (ended) await recordSession(ctx, userId, ended);
  return keeps;
}

/** A scrobble's play as the session sees it: its time, and the played time once the session has ended. */
export interface SessionPlay {
  at: Date;
  playedMs?: number | undefined;
}

/**
 * Where the user's scrobbles of songs fall in their playback session: the first scrobble of the
 * session's song (of one call) timed from a minute before its start to a minute after its end (or
 * any time after the start, while it is open) is the session's play, at the session's time; any
 * other is left as it is.
 */
export async function sessionPlays(db: Database, userId: string): Promise<(trackId: string, at: Date) => SessionPlay> {
  const found = await db.selectFrom('now_playing').select(['track_id', 'started_at', 'submitted']).where('user_id', '=', userId).executeTakeFirst();
  const session = found?.submitted.playback as Session | undefined;
  let taken = false;
  return (trackId, at) => {
    if (taken || !found || !session || trackId !== found.track_id) return { at };
    const stopped = session.state === 'stopped';
    const time = at.getTime();
    if (time < found.started_at.getTime() - SCROBBLE_SLACK_MS || (stopped && time > session.atMs + SCROBBLE_SLACK_MS)) return { at };
    taken = true;
    return { at: playTime(found.started_at), ...(stopped && { playedMs: Math.round(session.playedMs) }) };
  };
}
