/**
 * What ingest tells others once a play or a now-playing has committed: the live streams of every
 * process (bus.ts) and, for a now-playing, the user's webhooks (a play's webhooks are queued in its
 * own transaction instead: webhooks/outbox.ts). Best-effort, after the client has its answer.
 */
import { runDetached } from '../../toolkit/background.ts';
import { isoDateTime } from '../../toolkit/schemas.ts';
import type { AppContext } from '../context.ts';
import { isHistorySource } from '../history-sources.ts';
import { enqueueWebhookEvent } from '../webhooks/outbox.ts';
import { liveBusOf } from './bus.ts';

/** Plays of one call told live: a bulk submission is news once, not a thousand times; clients read the feed for the rest. */
const PLAYS_ANNOUNCED = 20;

/** Newly stored plays (not duplicates) by scrobble id, the newest PLAYS_ANNOUNCED; imported or synced-in ones are history, not news (history-sources.ts). */
export function announcePlays(ctx: AppContext, source: string, scrobbleIds: readonly string[]): void {
  if (scrobbleIds.length === 0 || isHistorySource(source)) return;
  runDetached('Live plays', async () => {
    const rows = await ctx.db
      .selectFrom('scrobbles as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .innerJoin('tracks as t', 't.id', 's.track_id')
      .select(['s.id', 's.user_id', 's.listened_at', 'u.did', 'u.handle', 't.id as track_id', 't.artist', 't.title', 't.album'])
      .where('s.id', 'in', scrobbleIds)
      .orderBy('s.listened_at', 'desc')
      .limit(PLAYS_ANNOUNCED)
      .execute();
    const bus = liveBusOf(ctx);
    for (const row of rows.reverse()) {
      await bus.publish({
        userId: row.user_id,
        event: {
          type: 'scrobble',
          did: row.did,
          handle: row.handle,
          scrobbleId: row.id,
          trackId: row.track_id,
          artist: row.artist,
          title: row.title,
          album: row.album,
          listenedAt: isoDateTime(row.listened_at),
        },
      });
    }
    return undefined;
  });
}

/** A now-playing just stored: to the live streams and the user's nowPlaying webhooks. */
export function announceNowPlaying(ctx: AppContext, userId: string, trackId: string): void {
  runDetached('Now playing announced', async () => {
    await enqueueWebhookEvent(ctx.db, userId, { kind: 'nowPlaying', trackId });
    const row = await ctx.db
      .selectFrom('now_playing as np')
      .innerJoin('users as u', 'u.id', 'np.user_id')
      .innerJoin('tracks as t', 't.id', 'np.track_id')
      .select(['np.started_at', 'u.did', 'u.handle', 't.id as track_id', 't.artist', 't.title', 't.album'])
      .where('np.user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return undefined;
    await liveBusOf(ctx).publish({
      userId,
      event: {
        type: 'nowPlaying',
        did: row.did,
        handle: row.handle,
        trackId: row.track_id,
        artist: row.artist,
        title: row.title,
        album: row.album,
        since: isoDateTime(row.started_at),
      },
    });
    return undefined;
  });
}
