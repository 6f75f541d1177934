/**
 * The per-artist and per-album all-time totals against the raw plays: every user's all-time top
 * artists and albums (actor-top.ts, what the profile, Last.fm and ListenBrainz read) must equal
 * counting their scrobbles through `tracks` as it is now, folded, partly folded or still queued,
 * through inserts, deletions, a track moved to another album and artist, merges and their undo,
 * a rebuild and an account's deletion; and each page of them, read to its end only
 * (ranked-totals.ts), equal to that slice of the whole list.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { inTransaction, openDatabase, type Database } from '../../../toolkit/db/index.ts';
import { testBackends } from '../../../toolkit/db/testing.ts';
import { seededPicker } from '../../../toolkit/fuzz-testing.ts';
import { playedCount, topAlbums, topArtists } from '../../catalog/actor-top.ts';
import { mergeEntries, undoCatalogEdit } from '../../catalog/edits/admin-edits.ts';
import { foldAll, foldBatch } from './fold.ts';
import { totalBatch } from './totals-ahead.ts';
import { groupPlays } from './groups.ts';
import { assertPlayedCounts } from './rollups-testing.ts';
import { ALL_TIME } from './reads.ts';
import { rebuildRollups } from './rebuild.ts';
import { createUser, FIRST, randomPlayRound, seedCatalog } from './rollups-testing.ts';

const ALL = { limit: 1000, offset: 0 };

/** (id, plays) most played first, the id breaking ties: as the top lists read them, and as counted from the scrobbles. */
async function bothWays(db: Database, userId: string | null) {
  const read = async (group: 'artist' | 'album') => {
    if (userId === null) {
      const { rows } = await sql<{ id: string; plays: number }>`select id, plays from (${groupPlays(null, group)}) g order by plays desc, id`.execute(db);
      return rows;
    }
    const top = async (page: { limit: number; offset: number }) => {
      const rows = group === 'artist' ? await topArtists(db, userId, ALL_TIME, page) : await topAlbums(db, userId, ALL_TIME, page);
      return rows.map((row) => ({ id: row.id, plays: row.playCount }));
    };
    const rows = await top(ALL);
    assert.equal(await playedCount(db, userId, ALL_TIME, group), rows.length);
    // A page is read to its end only (ranked-totals.ts): pages whose edges fall among ties and pending changes.
    for (const page of [
      { limit: 1, offset: 0 },
      { limit: 2, offset: 1 },
      { limit: 3, offset: 3 },
    ]) {
      assert.deepEqual(await top(page), rows.slice(page.offset, page.offset + page.limit), `${group}s, ${page.limit} from ${page.offset}`);
    }
    return rows;
  };
  const raw = async (column: 'artist_id' | 'album_id') => {
    const { rows } = await sql<{ id: string; plays: number }>`select ${sql.ref(`t.${column}`)} as id, count(*)::int as plays
      from scrobbles s join tracks t on t.id = s.track_id where ${userId === null ? sql`true` : sql`s.user_id = ${userId}`} and ${sql.ref(`t.${column}`)} is not null
      group by 1 order by 2 desc, 1`.execute(db);
    return rows;
  };
  return { read: { artists: await read('artist'), albums: await read('album') }, raw: { artists: await raw('artist_id'), albums: await raw('album_id') } };
}

async function assertAgree(db: Database, users: string[], context: string) {
  for (const user of [...users, null]) {
    const { read, raw } = await bothWays(db, user);
    assert.deepEqual(read, raw, `${context}, ${user ?? 'everyone'}`);
    if (user !== null) await assertPlayedCounts(db, user, `${context}, ${user}`);
  }
}

/** Once everything is folded and regrouped, the tables themselves hold the counts, with no row at zero. */
async function assertTablesExact(db: Database, context: string) {
  for (const group of ['artist', 'album'] as const) {
    const column = sql.ref(`t.${group}_id`);
    const { rows: stored } = await sql`select user_id, ${sql.ref(`${group}_id`)} as id, plays from ${sql.table(`stats_${group}_totals`)} order by 1, 2`.execute(
      db,
    );
    const { rows: counted } = await sql`select s.user_id, ${column} as id, count(*)::int as plays from scrobbles s join tracks t on t.id = s.track_id
      where ${column} is not null group by 1, 2 order by 1, 2`.execute(db);
    assert.deepEqual(stored, counted, `${group} totals table: ${context}`);
  }
}

async function queued(db: Database): Promise<number> {
  const { rows } = await sql<{ n: number }>`select (select count(*) from stats_queue) + (select count(*) from stats_regroup) as n`.execute(db);
  return Number(rows[0]!.n);
}

for (const backend of testBackends()) {
  describe(`all-time artist and album totals [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    let admin: string;
    let users: string[];
    let tracks: string[];
    before(async () => {
      ({ db, close } = await backend.open());
      tracks = await seedCatalog(db, { unattributed: true });
      admin = await createUser(db, 'root', true);
      users = [admin, await createUser(db, 'ana'), await createUser(db, 'ben')];
    });
    after(() => close());

    test('top artists and albums of all time equal counting the scrobbles after inserts, deletes and moved tracks, folded or queued', async () => {
      const random = seededPicker(11);
      const artists = await db.selectFrom('artists').select('id').execute();
      const albums = await db.selectFrom('albums').select('id').execute();
      for (let round = 0; round < 10; round++) {
        await randomPlayRound(db, random, users, tracks, round);
        // A song moved to another album and artist (or to none), as a catalog edit or a library scan may.
        if (random.int(2) === 0) {
          await db
            .updateTable('tracks')
            .set({ artist_id: random.int(4) === 0 ? null : random.pick(artists).id, album_id: random.int(4) === 0 ? null : random.pick(albums).id })
            .where('id', '=', random.pick(tracks))
            .execute();
        }
        // Totalled ahead of the fold or not (totals-ahead.ts), then folded or not.
        const folding = random.pick(['all', 'some', 'none', 'totals', 'totals and some']);
        if (folding === 'all') await foldAll(db);
        if (folding.startsWith('totals')) await totalBatch(db);
        if (folding.endsWith('some')) await foldBatch(db);
        await assertAgree(db, users, `round ${round}, fold ${folding}`);
      }
      await foldAll(db);
      assert.equal(await queued(db), 0);
      await assertAgree(db, users, 'all folded');
      await assertTablesExact(db, 'all folded');
    });

    test('merges of songs, albums and artists and their undo, folded, partly folded or queued', async () => {
      const [a, b, c] = await sql<{ id: string; album_id: string | null }>`
        select id, album_id from tracks where album_id is not null and artist_id is not null order by title limit 3`
        .execute(db)
        .then((r) => r.rows);
      await db
        .insertInto('scrobbles')
        .values(
          users.flatMap((user_id, i) => [a!, b!, c!].map((track, j) => ({ user_id, track_id: track.id, listened_at: new Date(FIRST + (i * 3 + j) * 60_000) }))),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
      await foldAll(db);
      const song = await mergeEntries(db, admin, 'song', a!.id, b!.id);
      await assertAgree(db, users, 'song merge, queued');
      await totalBatch(db);
      await assertAgree(db, users, 'song merge, totalled');
      const album = await mergeEntries(db, admin, 'album', c!.album_id!, b!.album_id!);
      await assertAgree(db, users, 'album merge, queued');
      await foldBatch(db);
      await assertAgree(db, users, 'album merge, folded');
      const artists = await db.selectFrom('artists').select('id').orderBy('name').execute();
      const artist = await mergeEntries(db, admin, 'artist', artists[0]!.id, artists[1]!.id);
      await assertAgree(db, users, 'artist merge, queued');
      await foldAll(db);
      await assertAgree(db, users, 'artist merge, folded');
      await assertTablesExact(db, 'merged, folded');
      for (const edit of [artist, album, song]) {
        await undoCatalogEdit(db, admin, edit);
        await assertAgree(db, users, `undo ${edit}, queued`);
        if (edit === album) await foldBatch(db);
      }
      await foldAll(db);
      await assertAgree(db, users, 'undone, folded');
      await assertTablesExact(db, 'undone, folded');
    });

    test('a song merged away after its album moved, then both undone', async () => {
      const [x, y] = await sql<{ id: string; album_id: string }>`
        select id, album_id from tracks where album_id is not null and artist_id is not null order by title desc limit 2`
        .execute(db)
        .then((r) => r.rows);
      const other = await db.selectFrom('albums').select('id').where('id', 'not in', [x!.album_id, y!.album_id]).orderBy('id').executeTakeFirstOrThrow();
      await db
        .insertInto('scrobbles')
        .values(users.map((user_id, i) => ({ user_id, track_id: x!.id, listened_at: new Date(FIRST + 9_000_000 + i * 60_000) })))
        .execute();
      await foldAll(db);
      const album = await mergeEntries(db, admin, 'album', x!.album_id, other.id);
      const song = await mergeEntries(db, admin, 'song', x!.id, y!.id);
      await assertAgree(db, users, 'album moved, song merged, queued');
      await foldAll(db);
      await assertAgree(db, users, 'album moved, song merged, folded');
      await undoCatalogEdit(db, admin, song);
      await assertAgree(db, users, 'song merge undone, queued');
      await foldAll(db);
      await assertAgree(db, users, 'song merge undone, folded');
      await undoCatalogEdit(db, admin, album);
      await foldAll(db);
      await assertAgree(db, users, 'both undone, folded');
      await assertTablesExact(db, 'both undone, folded');
    });

    test('merges, undos, plays and folds in several connections stay exact', { skip: backend.name !== 'postgres' && 'PGlite has one connection' }, async () => {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
      const others = await Promise.all([1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: process.env.TEST_DATABASE_URL!, schema: rows[0]!.schema })));
      try {
        const albums = await db.selectFrom('albums').select('id').orderBy('id').execute();
        const random = seededPicker(23);
        for (let round = 0; round < 6; round++) {
          const [from, into] = [random.pick(albums).id, random.pick(albums).id];
          const editor = async () => {
            if (from === into) return;
            const edit = await mergeEntries(others[0]!, admin, 'album', from, into);
            await foldBatch(others[0]!);
            await undoCatalogEdit(others[0]!, admin, edit);
          };
          // A writer as Earshot's own are: a deadlock with a merge is retried (inTransaction), not a failed write.
          const plays = (offset: number) =>
            Array.from({ length: 30 }, (_, i) => ({
              user_id: random.pick(users),
              track_id: random.pick(tracks),
              listened_at: new Date(FIRST + (round * 1000 + offset + i) * 61_000),
            }));
          const player = (other: Database, offset: number) => {
            const values = plays(offset);
            return inTransaction(other, (tx) =>
              tx
                .insertInto('scrobbles')
                .values(values)
                .onConflict((oc) => oc.doNothing())
                .execute(),
            ).then(() => foldBatch(other));
          };
          await Promise.all([editor(), player(others[1]!, 0), player(others[2]!, 500), foldAll(db), foldAll(others[2]!)]);
          await assertAgree(db, users, `round ${round}`);
        }
        await Promise.all([foldAll(db), ...others.map((other) => foldAll(other))]);
        await assertAgree(db, users, 'all folded');
        await assertTablesExact(db, 'all folded');
      } finally {
        await Promise.all(others.map((other) => other.destroy()));
      }
    });

    test("a deleted account's plays leave the totals, before and after the fold", async () => {
      const gone = await createUser(db, 'gone');
      await db
        .insertInto('scrobbles')
        .values({ user_id: gone, track_id: tracks[1]!, listened_at: new Date(FIRST) })
        .execute();
      await foldAll(db);
      await db
        .insertInto('scrobbles')
        .values({ user_id: gone, track_id: tracks[2]!, listened_at: new Date(FIRST) })
        .execute();
      await db.deleteFrom('users').where('id', '=', gone).execute();
      await assertAgree(db, users, 'account deleted, its removals queued');
      await foldAll(db);
      await assertAgree(db, users, 'account deleted, folded');
      for (const table of ['stats_artist_totals', 'stats_album_totals'] as const) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where user_id = ${gone}`.execute(db);
        assert.equal(rows[0]!.n, 0, table);
      }
    });

    test('a rebuild gives exactly the totals the fold kept up, a regroup pending or not', async () => {
      await db
        .insertInto('scrobbles')
        .values({ user_id: users[2]!, track_id: tracks[3]!, listened_at: new Date(FIRST + 7) })
        .execute();
      await foldAll(db);
      const table = () =>
        sql`select 'artist' as g, user_id, artist_id as id, plays from stats_artist_totals union all select 'album', user_id, album_id, plays from stats_album_totals order by 1, 2, 3`
          .execute(db)
          .then((r) => r.rows);
      const folded = await table();
      await rebuildRollups(db);
      assert.deepEqual(await table(), folded);
      // Rebuilt with a move not yet regrouped: the rebuild counts tracks as they are now.
      const albums = await db.selectFrom('albums').select('id').orderBy('id').execute();
      await db.updateTable('tracks').set({ album_id: albums[0]!.id }).where('id', '=', tracks[3]!).execute();
      await rebuildRollups(db);
      assert.equal(await queued(db), 0);
      await assertAgree(db, users, 'rebuilt');
      await assertTablesExact(db, 'rebuilt');
    });
  });
}
