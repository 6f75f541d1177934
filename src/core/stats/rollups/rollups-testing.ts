/** A small catalog, accounts and plays for the rollups' tests (totals, groups, the queue's marks, the fold's vacuum). */
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import type { seededPicker } from '../../../toolkit/fuzz-testing.ts';
import { playedCounts } from './ranked-totals.ts';

/**
 * 4 artists, 6 albums and 16 tracks, some without an album; with `unattributed`, some without an
 * artist too. Answers the track ids, by title.
 */
export async function seedCatalog(db: Database, { unattributed = false } = {}): Promise<string[]> {
  await sql`insert into artists (name, name_key) select 'Artist ' || i, 'artist ' || i from generate_series(1, 4) i`.execute(db);
  await sql`insert into albums (title, title_key, artist, artist_id)
    select 'Album ' || i, 'album ' || i, a.name, a.id from generate_series(1, 6) i join artists a on a.name = 'Artist ' || (1 + i % 4)`.execute(db);
  const artistJoin = unattributed
    ? sql`left join artists a on a.name = 'Artist ' || (1 + i % 4) and i % 7 <> 0`
    : sql`join artists a on a.name = 'Artist ' || (1 + i % 4)`;
  await sql`insert into tracks (title, title_key, artist, artist_id, album, album_id)
    select 'Track ' || i, 'track ' || i, coalesce(a.name, 'Unknown'), a.id, al.title, al.id
    from generate_series(1, 16) i ${artistJoin}
    left join albums al on al.title = 'Album ' || (1 + i % 6) and i % 5 <> 0`.execute(db);
  const rows = await db.selectFrom('tracks').select('id').orderBy('title').execute();
  return rows.map((row) => row.id);
}

/** `count` plays of `user`, `stepMs` apart from `from`, over `tracks` in turn: one statement, as an import batch is. */
export async function playInTurn(db: Database, user: string, tracks: string[], count: number, from: number, stepMs: number): Promise<void> {
  await sql`insert into scrobbles (user_id, track_id, listened_at)
    select ${user}::uuid, (${sql.val(tracks)}::uuid[])[1 + i % ${tracks.length}], to_timestamp(${from / 1000}::float8 + i * ${stepMs / 1000}::float8)
    from generate_series(0, ${count - 1}) i`.execute(db);
}

export async function createUser(db: Database, handle: string, admin = false): Promise<string> {
  const row = await db
    .insertInto('users')
    .values({ did: `did:plc:${handle}`, handle, admin })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The first instant of the tests' plays. */
export const FIRST = Date.UTC(2023, 0, 1);

/**
 * One round of random history changes: 1 to 40 plays by the users of the tracks within 400 hours of
 * FIRST (a same-time repeat is skipped), then up to 7 plays deleted, chosen by the round's number.
 */
export async function randomPlayRound(db: Database, random: ReturnType<typeof seededPicker>, users: string[], tracks: string[], round: number): Promise<void> {
  const plays = Array.from({ length: 1 + random.int(40) }, () => ({
    user_id: random.pick(users),
    track_id: random.pick(tracks),
    listened_at: new Date(FIRST + random.int(400) * 3_600_000),
  }));
  await db
    .insertInto('scrobbles')
    .values(plays)
    .onConflict((oc) => oc.doNothing())
    .execute();
  await sql`delete from scrobbles where id in (select id from scrobbles order by md5(id::text || ${round}::text) limit ${random.int(8)})`.execute(db);
}

/** A user's all-time counts as a profile shows them (playedCounts) equal counting their scrobbles through the catalog as it is now. */
export async function assertPlayedCounts(db: Database, userId: string, context: string): Promise<void> {
  const { rows: read } = await sql<{ plays: number; tracks: number; artists: number }>`select * from (${playedCounts(userId)}) c`.execute(db);
  const { rows: raw } = await sql<{ plays: number; tracks: number; artists: number }>`select count(*)::int as plays,
      count(distinct s.track_id)::int as tracks, count(distinct t.artist_id)::int as artists
    from scrobbles s join tracks t on t.id = s.track_id where s.user_id = ${userId}`.execute(db);
  assert.deepEqual(read[0], raw[0], `${context}: profile counts`);
}
