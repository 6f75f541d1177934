/**
 * The all-time totals against the raw plays: every song's, album's and artist's play count and
 * listeners, and every user's all-time counts, read through the totals (folded or still queued)
 * must equal counting the scrobbles, through inserts, deletions, catalog merges and their undo,
 * account deletion and a rebuild.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import { testBackends } from '../../../toolkit/db/testing.ts';
import { seededPicker } from '../../../toolkit/fuzz-testing.ts';
import { albumPlayCount, artistPlayCount, selectAlbums, selectArtists } from '../../catalog/group-view.ts';
import type { SortKey } from '../../catalog/page-query.ts';
import { mergeEntries, undoCatalogEdit } from '../../catalog/edits/admin-edits.ts';
import { allSongs, selectSongs, songPlayCount, toSong } from '../../catalog/song-view.ts';
import { foldAll, foldBatch } from './fold.ts';
import { totalBatch } from './totals-ahead.ts';
import { ALL_TIME, trackPlays } from './reads.ts';
import { rebuildRollups } from './rebuild.ts';
import { createUser, FIRST, randomPlayRound, seedCatalog } from './rollups-testing.ts';

/** Most played first, the id breaking ties. */
const mostPlayed = (plays: Expression<unknown>, id: string): SortKey[] => [
  { expression: plays, direction: 'desc' },
  { expression: sql.ref(id), direction: 'asc' },
];

/** Every song, album and artist, most played first, with plays and listeners, as the catalog reads them from the totals and as counted from the scrobbles. */
async function bothWays(db: Database) {
  const all = { limit: 1000 };
  const songs = await selectSongs(db, allSongs(db), { order: mostPlayed(songPlayCount, 't.id'), ...all }, null);
  const artists = await selectArtists(db, { order: mostPlayed(artistPlayCount, 'ar.id'), ...all });
  const albums = await selectAlbums(db, { order: mostPlayed(albumPlayCount, 'al.id'), ...all });
  const raw = (from: RawBuilder<unknown>) =>
    sql<{
      id: string;
      playCount: number;
      uniqueListeners: number;
    }>`select g.id, count(p.id)::int as "playCount", count(distinct p.user_id)::int as "uniqueListeners"
      from ${from} left join scrobbles p on p.track_id = t.id group by g.id order by 2 desc, 1`
      .execute(db)
      .then((result) => result.rows);
  const { rows: everyone } = await sql`select * from (${trackPlays(null, ALL_TIME)}) c order by 1`.execute(db);
  const { rows: rawEveryone } = await sql`select track_id, count(*)::int as plays from scrobbles group by 1 order by 1`.execute(db);
  const pick = (rows: { id: string; playCount: number; uniqueListeners: number }[]) =>
    rows.map(({ id, playCount, uniqueListeners }) => ({ id, playCount, uniqueListeners }));
  return {
    totals: { songs: pick(songs.map(toSong)), artists: pick(artists), albums: pick(albums), everyone },
    raw: {
      songs: await raw(sql`tracks g join tracks t on t.id = g.id`),
      artists: await raw(sql`artists g left join tracks t on t.artist_id = g.id`),
      albums: await raw(sql`albums g left join tracks t on t.album_id = g.id`),
      everyone: rawEveryone,
    },
  };
}

/** stats_catalog_plays, which the triggers keep equal to the per-user totals summed per track (rows at zero may stay). */
async function catalogPlays(db: Database) {
  const { rows } = await sql`select track_id, plays from stats_catalog_plays where plays <> 0 order by 1`.execute(db);
  return rows;
}

async function assertAgree(db: Database, context: string) {
  const { totals, raw } = await bothWays(db);
  assert.deepEqual(totals, raw, context);
  const { rows: summed } = await sql`select track_id, sum(plays)::int as plays from stats_track_totals group by 1 having sum(plays) <> 0 order by 1`.execute(
    db,
  );
  assert.deepEqual(await catalogPlays(db), summed, `catalog plays: ${context}`);
}

async function queued(db: Database): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from stats_queue`.execute(db);
  return rows[0]!.n;
}

for (const backend of testBackends()) {
  describe(`all-time totals [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    let admin: string;
    let users: string[];
    let tracks: string[];
    before(async () => {
      ({ db, close } = await backend.open());
      tracks = await seedCatalog(db);
      admin = await createUser(db, 'root', true);
      users = [admin, await createUser(db, 'ana'), await createUser(db, 'ben')];
    });
    after(() => close());

    test('equal counting the scrobbles after inserts and deletes, folded, partly folded or still queued', async () => {
      const random = seededPicker(5);
      for (let round = 0; round < 12; round++) {
        await randomPlayRound(db, random, users, tracks, round);
        const folding = random.pick(['all', 'some', 'none', 'totals', 'totals and some']);
        if (folding === 'all') await foldAll(db);
        if (folding.startsWith('totals')) await totalBatch(db);
        if (folding.endsWith('some')) await foldBatch(db);
        await assertAgree(db, `round ${round}, fold ${folding}`);
      }
      await foldAll(db);
      await assertAgree(db, 'all folded');
    });

    test('equal counting the scrobbles across merges of songs, albums and artists and their undo, folded or not', async () => {
      const [a, b, c] = await sql<{ id: string; album_id: string | null; artist_id: string }>`
        select id, album_id, artist_id from tracks where album_id is not null order by title limit 3`
        .execute(db)
        .then((r) => r.rows);
      await db
        .insertInto('scrobbles')
        .values(
          users.flatMap((user_id, i) => [a!, b!, c!].map((track, j) => ({ user_id, track_id: track.id, listened_at: new Date(FIRST + (i * 3 + j) * 60_000) }))),
        )
        .onConflict((oc) => oc.doNothing())
        .execute();
      // The same listen on both sides of a song merge: one stays.
      await db
        .insertInto('scrobbles')
        .values({ user_id: users[1]!, track_id: b!.id, listened_at: new Date(FIRST - 60_000) })
        .execute();
      await db
        .insertInto('scrobbles')
        .values({ user_id: users[1]!, track_id: a!.id, listened_at: new Date(FIRST - 60_000) })
        .execute();
      const song = await mergeEntries(db, admin, 'song', a!.id, b!.id);
      await assertAgree(db, 'song merge, queued');
      await foldAll(db);
      await assertAgree(db, 'song merge, folded');
      const album = await mergeEntries(db, admin, 'album', c!.album_id!, b!.album_id!);
      await assertAgree(db, 'album merge, queued');
      const artists = await db.selectFrom('artists').select('id').orderBy('name').execute();
      const artist = await mergeEntries(db, admin, 'artist', artists[0]!.id, artists[1]!.id);
      await assertAgree(db, 'artist merge, queued');
      await foldBatch(db);
      await assertAgree(db, 'artist merge, partly folded');
      for (const edit of [artist, album, song]) {
        await undoCatalogEdit(db, admin, edit);
        await assertAgree(db, `undo ${edit}, queued`);
      }
      await foldAll(db);
      await assertAgree(db, 'undone, folded');
    });

    test("a deleted account's plays leave the totals, before and after the fold", async () => {
      const gone = await createUser(db, 'gone');
      await db
        .insertInto('scrobbles')
        .values({ user_id: gone, track_id: tracks[0]!, listened_at: new Date(FIRST) })
        .execute();
      await foldAll(db);
      await db
        .insertInto('scrobbles')
        .values({ user_id: gone, track_id: tracks[1]!, listened_at: new Date(FIRST) })
        .execute();
      await db.deleteFrom('users').where('id', '=', gone).execute();
      assert.ok((await queued(db)) > 0);
      await assertAgree(db, 'account deleted, its removals queued');
      await foldAll(db);
      await assertAgree(db, 'account deleted, folded');
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from stats_track_totals where user_id = ${gone}`.execute(db);
      assert.equal(rows[0]!.n, 0);
    });

    test('a rebuild gives exactly the totals the fold kept up', async () => {
      await db
        .insertInto('scrobbles')
        .values({ user_id: users[2]!, track_id: tracks[3]!, listened_at: new Date(FIRST + 7) })
        .execute();
      await foldAll(db);
      const table = () => sql`select user_id, track_id, plays from stats_track_totals order by 1, 2`.execute(db).then((r) => r.rows);
      const folded = await table();
      const { rows: zeros } = await sql<{ n: number }>`select count(*)::int as n from stats_track_totals where plays <= 0`.execute(db);
      assert.equal(zeros[0]!.n, 0, 'no row counted down to nothing stays');
      const catalog = await catalogPlays(db);
      await rebuildRollups(db);
      assert.deepEqual(await table(), folded);
      assert.deepEqual(await catalogPlays(db), catalog);
      await assertAgree(db, 'rebuilt');
    });
  });
}
