/**
 * Scrobbles what users play on the streaming service: each connected account's recently played
 * tracks after its cursor become listens. The cursor moves only once the listens are stored, so
 * a failed poll is read again next time (and a play read twice is a duplicate, not a second
 * listen). Each poll also reads what is playing, so the plays it sees carry how long they were
 * listened to (observed-plays.ts). A lease in the database keeps every server process on it from polling one account at once.
 */
import { sql } from 'kysely';
import { databaseNowMs } from '../../toolkit/db/index.ts';
import type { AppContext } from '../context.ts';
import { artistCredit, isrcOrUndefined } from '../catalog/track-metadata.ts';
import { withAccessToken } from '../providers/connections.ts';
import { ProviderError } from '../providers/errors.ts';
import { providerClient } from '../providers/registry.ts';
import type { CurrentlyPlaying, RecentPlay, StreamingClient } from '../providers/types.ts';
import { ingestListens, type Listen } from '../scrobbling/ingest.ts';
import { observe, pairPlays, type ObservedPlay } from './observed-plays.ts';

const PROVIDER = 'musicstream';
/** Longer than any one poll (a few provider calls, each bounded by PROVIDER_TIMEOUT_MS, and one ingest); a crashed poller's lease lapses after it. */
const LEASE = sql`interval '5 minutes'`;

export interface AccountPoll {
  stored: number;
  duplicates: number;
  ignored: number;
}

export interface PollSummary extends AccountPoll {
  polled: number;
  failed: number;
}

export function listenOf(play: RecentPlay, playedMs?: number): Listen {
  const { track } = play;
  return {
    ...(playedMs !== undefined && { playedMs }),
    artist: artistCredit(track.artists),
    title: track.title,
    album: track.album,
    durationMs: track.durationMs,
    isrc: isrcOrUndefined(track.isrc),
    listenedAt: play.playedAt,
    // The play as the service listed it, so nothing the matcher does not use is lost.
    submitted: { track: { ...track }, playedAt: play.playedAt.toISOString() },
  };
}

/**
 * What is playing, or undefined when the service would not say: the listening time of the play
 * under way is a bonus the poll's plays do not wait for. A refused token still goes to
 * withAccessToken, which refreshes it.
 */
const readPlaying = (client: StreamingClient, token: string): Promise<CurrentlyPlaying | null | undefined> =>
  client.currentlyPlaying(token).catch((error: unknown) => {
    if (error instanceof ProviderError) return undefined;
    throw error;
  });

/** What the user sees in getConnections when a poll fails: a provider's explanation, never an internal one. */
const pollErrorText = (error: unknown) => (error instanceof ProviderError ? error.message : 'the poll failed inside Earshot; the server log has the details');

/**
 * Reads the account's plays after its cursor and stores them as the user's listens; then, and
 * only then, moves the cursor. A failure is recorded on the connection (last_poll_error), the
 * cursor is left, and the error thrown on.
 */
export async function pollStreamingAccount(ctx: AppContext, userId: string, signal?: AbortSignal): Promise<AccountPoll> {
  const row = await ctx.db
    .selectFrom('provider_accounts')
    .select(['poll_cursor', 'account_id', 'poll_observed'])
    .where('user_id', '=', userId)
    .where('provider', '=', PROVIDER)
    .executeTakeFirst();
  try {
    const client = providerClient(ctx.config, PROVIDER);
    const { playing, plays, cursor } = await withAccessToken(ctx, userId, PROVIDER, async (token) => {
      const playing = await readPlaying(client, token);
      return { playing, ...(await client.recentlyPlayed(token, row?.poll_cursor ?? null)) };
    });
    signal?.throwIfAborted();
    const before = (row?.poll_observed ?? []) as ObservedPlay[];
    const seen = playing === undefined ? before : observe(before, playing, await databaseNowMs(ctx.db));
    // Plays listed later are all after the newest one read now.
    const paired = pairPlays(seen, plays, plays.at(-1)?.playedAt.getTime() ?? null);
    const listens = plays.map((play, i) => listenOf(play, paired.playedMs[i]));
    const outcomes = plays.length === 0 ? [] : await ingestListens(ctx, userId, listens, PROVIDER);
    // A reconnect to another account meanwhile started that account afresh: this cursor is not its.
    await ctx.db
      .updateTable('provider_accounts')
      .set({ poll_cursor: cursor, poll_observed: JSON.stringify(paired.observed), last_polled_at: sql<Date>`now()`, last_poll_error: null })
      .where('user_id', '=', userId)
      .where('provider', '=', PROVIDER)
      .where('account_id', row?.account_id == null ? 'is' : '=', row?.account_id ?? null)
      .execute();
    return {
      stored: outcomes.filter((outcome) => outcome.status === 'stored').length,
      duplicates: outcomes.filter((outcome) => outcome.status === 'duplicate').length,
      ignored: outcomes.filter((outcome) => outcome.status === 'ignored').length,
    };
  } catch (error) {
    if (!signal?.aborted) {
      await ctx.db
        .updateTable('provider_accounts')
        .set({ last_poll_error: pollErrorText(error) })
        .where('user_id', '=', userId)
        .where('provider', '=', PROVIDER)
        .execute();
    }
    throw error;
  }
}

/**
 * Takes the account's lease unless another poller holds it or has polled the account since
 * `since` (this run began): one conditional UPDATE, atomic on PostgreSQL and PGlite alike.
 */
async function claim(ctx: AppContext, userId: string, since: Date): Promise<boolean> {
  const claimed = await ctx.db
    .updateTable('provider_accounts')
    .set({ poll_lease_until: sql<Date>`now() + ${LEASE}` })
    .where('user_id', '=', userId)
    .where('provider', '=', PROVIDER)
    .where('status', '=', 'connected')
    .where((eb) => eb.or([eb('poll_lease_until', 'is', null), eb('poll_lease_until', '<', sql<Date>`now()`)]))
    .where((eb) => eb.or([eb('last_polled_at', 'is', null), eb('last_polled_at', '<', since)]))
    .returning('user_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

async function release(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.updateTable('provider_accounts').set({ poll_lease_until: null }).where('user_id', '=', userId).where('provider', '=', PROVIDER).execute();
}

/**
 * Polls every connected account of the streaming service whose lease is free, one at a time;
 * one account's failure (recorded on it) does not stop the others. Nothing to do when the
 * service is not configured.
 */
export async function pollStreamingAccounts(ctx: AppContext, signal?: AbortSignal): Promise<PollSummary> {
  const summary: PollSummary = { polled: 0, failed: 0, stored: 0, duplicates: 0, ignored: 0 };
  if (!ctx.config.providers.musicstream) return summary;
  const { since } = await sql<{ since: Date }>`select now() as since`.execute(ctx.db).then((result) => result.rows[0]!);
  const accounts = await ctx.db
    .selectFrom('provider_accounts')
    .select('user_id')
    .where('provider', '=', PROVIDER)
    .where('status', '=', 'connected')
    .orderBy('user_id')
    .execute();
  for (const { user_id: userId } of accounts) {
    if (signal?.aborted) break;
    if (!(await claim(ctx, userId, since))) continue;
    try {
      const poll = await pollStreamingAccount(ctx, userId, signal);
      summary.polled++;
      summary.stored += poll.stored;
      summary.duplicates += poll.duplicates;
      summary.ignored += poll.ignored;
    } catch {
      if (!signal?.aborted) summary.failed++;
    } finally {
      await release(ctx, userId);
    }
  }
  return summary;
}

/** The summary as one log line, or undefined when there was nothing to do. */
export function describePoll(summary: PollSummary): string | undefined {
  // A quiet poll (nothing new, nothing failed) is not worth a log line every few minutes.
  if (summary.stored + summary.ignored + summary.failed === 0) return undefined;
  return `polled ${summary.polled} account(s): ${summary.stored} new listen(s), ${summary.duplicates} already stored, ${summary.ignored} ignored; ${summary.failed} failed`;
}
