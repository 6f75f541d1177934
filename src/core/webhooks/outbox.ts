/**
 * Queues webhook deliveries. A play's are written in the transaction that stores it (like the
 * relay outbox), so a receiver hears of a play if and only if it was stored; for a user without
 * hooks the statements find nothing to write. Each row keeps the event's data as it was then.
 */
import { sql, type Transaction } from 'kysely';
import type { Database, DB } from '../../toolkit/db/index.ts';
import { historySourceSql } from '../history-sources.ts';

/** The song part of every event: as the catalog names it. */
const track = sql`jsonb_build_object('trackId', tr.id, 'artist', tr.artist, 'title', tr.title, 'album', tr.album, 'durationMs', tr.duration, 'mbid', tr.mbid)`;
const user = sql`jsonb_build_object('did', u.did, 'handle', u.handle)`;

/** Freshly stored plays of any users (a group commit's), for the hooks that take scrobbles. Imported and synced-in plays are not sent: they are history, not news (history-sources.ts). */
export async function enqueueWebhookScrobbles(tx: Transaction<DB>, scrobbleIds: readonly string[]): Promise<void> {
  if (scrobbleIds.length === 0) return;
  await sql`
    insert into webhook_deliveries (user_id, hook_id, event, payload)
    select h.user_id, h.id, 'scrobble',
      jsonb_build_object('user', ${user}, 'scrobble', jsonb_build_object('scrobbleId', s.id, 'listenedAt', s.listened_at) || ${track})
    from webhooks h
    join scrobbles s on s.user_id = h.user_id
    join tracks tr on tr.id = s.track_id
    join users u on u.id = s.user_id
    where s.id in (${sql.join(scrobbleIds)}) and 'scrobble' = any (h.events) and not ${historySourceSql(sql.ref('s.source'))}`.execute(tx);
}

/** A now-playing or a change of a song's love, for the user's hooks that take it. */
export async function enqueueWebhookEvent(
  db: Database | Transaction<DB>,
  userId: string,
  event: { kind: 'nowPlaying'; trackId: string } | { kind: 'love'; trackId: string; loved: boolean },
): Promise<void> {
  const extra = event.kind === 'love' ? sql`jsonb_build_object('loved', ${event.loved}::boolean)` : sql`'{}'::jsonb`;
  await sql`
    insert into webhook_deliveries (user_id, hook_id, event, payload)
    select h.user_id, h.id, ${event.kind}, jsonb_build_object('user', ${user}, 'track', ${track}) || ${extra}
    from webhooks h
    join users u on u.id = h.user_id
    join tracks tr on tr.id = ${event.trackId}
    where h.user_id = ${userId} and ${event.kind} = any (h.events)`.execute(db);
}
