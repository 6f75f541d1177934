/** Sync test support: a history to sync from, seeded on the source Earshot (B) quickly. */
import { sql } from 'kysely';
import type { TestApp } from '../../app/testing.ts';
import { ingestListens } from '../scrobbling/ingest.ts';

const SONGS = 500;
/** B's plays: one a minute back from here, whole seconds (ListenBrainz's grain). */
export const NEWEST = Date.UTC(2025, 0, 1);

/** Seeds a user's history of `plays` plays on an app: its songs through ingest, then the plays in one statement. */
export async function seedHistory(app: TestApp, userId: string, plays: number): Promise<void> {
  const songs = Array.from({ length: SONGS }, (_, i) => ({
    artist: `Artist ${i % 50}`,
    title: `Song ${i}`,
    album: `Album ${i % 100}`,
    listenedAt: new Date(NEWEST - i * 60_000),
  }));
  await ingestListens(app.ctx, userId, songs, 'import:seed');
  await sql`
    insert into scrobbles (user_id, track_id, listened_at, submitted, source)
    select ${userId}, s.track_id, to_timestamp(${NEWEST / 1000}::bigint - i * 60), '{}', 'import:seed'
    from generate_series(${SONGS}::int, ${plays - 1}::int) i
    join (select track_id, row_number() over (order by listened_at desc) - 1 as n from scrobbles where user_id = ${userId}) s on s.n = i % ${SONGS}::int`.execute(
    app.ctx.db,
  );
}
