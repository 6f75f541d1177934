import { sql, type Transaction } from 'kysely';
import type { DB } from '../../toolkit/db/index.ts';
import { historySourceSql } from '../history-sources.ts';

/**
 * Queues freshly stored plays for each of the user's relay targets, in the transaction that
 * stores them, so a play is relayed if and only if it was stored. One statement, whatever the
 * number of plays or targets; for a user without targets it finds nothing to write. Skipped: a
 * target the play came from (origin_target), a Last.fm target not linked yet, and imported (or
 * synced-in) plays unless the target relays imports and the play falls inside its window.
 * Deletions are queued by the database itself, whatever deletes a play: the trigger
 * scrobbles_relay_deleted (migration 0028) queues the deletion of each deleted play a target was
 * sent, and drops those not sent yet, in the deleting transaction; sender.ts delivers both.
 */
export async function enqueueRelayPlays(tx: Transaction<DB>, scrobbleIds: readonly string[]): Promise<void> {
  if (scrobbleIds.length === 0) return;
  // One batch may hold several users' plays (group commit), each with its own source; where a play
  // came from is as ingest names it: imports are 'import:<format>'. Plays synced in from another
  // service ('sync:<service>', core/sync) count as imports: a first sync is a whole history, which a
  // target takes only when it relays imports (a window from the day of linking takes only new plays).
  await sql`
    insert into relay_outbox (user_id, target_id, scrobble_id, payload)
    select s.user_id, t.id, s.id,
      jsonb_build_object('artist', tr.artist, 'title', tr.title, 'album', tr.album, 'durationMs', tr.duration, 'mbid', tr.mbid, 'listenedAt', s.listened_at)
    from relay_targets t
    join scrobbles s on s.user_id = t.user_id
    join tracks tr on tr.id = s.track_id
    where s.id in (${sql.join(scrobbleIds)})
      and t.secret_sealed is not null
      and (s.origin_target is null or s.origin_target <> t.id)
      and (not ${historySourceSql(sql.ref('s.source'))} or (t.relay_imports
        and (t.imports_from is null or s.listened_at >= t.imports_from)
        and (t.imports_until is null or s.listened_at < t.imports_until)))
    on conflict on constraint relay_outbox_once do nothing`.execute(tx);
}
