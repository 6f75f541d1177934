import { sql } from 'kysely';
import { deriveKeys } from '../src/core/auth/index.ts';
import { createApiKey } from '../src/core/auth/api-keys.ts';
import { loadConfig } from '../src/toolkit/config.ts';
import type { Database } from '../src/toolkit/db/index.ts';
import { startHosts } from '../src/app/server.ts';
import { benchTargets, compare } from './harness.ts';
import { Metrics } from '../src/core/ops/metrics.ts';

/**
 * Subsonic browsing over a realistic library: getAlbumList2 (several types) and search3 through
 * HTTP, each against raw SQL doing the same selection (the visible, playable albums or songs in
 * the same order, with the counts the answer carries) on the same database.
 */
export async function subsonicLibraryBenchmark(): Promise<void> {
  const tracks = Number(process.env.BENCH_LIBRARY_TRACKS ?? 20_000);
  const albums = Math.max(1, Math.round(tracks / 10));
  console.log(`subsonic library: ${tracks} tracks in ${albums} albums, HTTP against raw SQL`);
  for await (const target of benchTargets()) {
    // Limits off: a bench measures the server, not the budget of one busy client address.
    const ctx = {
      config: { ...loadConfig({ EARSHOT_RATE_LIMITS: 'off' }), port: 0 },
      db: target.db,
      keys: deriveKeys('bench-secret-'.padEnd(48, 'x')),
      metrics: new Metrics(target.db),
    };
    const hosts = await startHosts(ctx, ['api'], false);
    try {
      const { userId, key, handle } = await seedLibrary(target.db, ctx.keys, tracks, albums);
      const rest = (method: string, params: Record<string, string>) => async () => {
        const response = await fetch(`${hosts.urls.api}/rest/${method}.view?${new URLSearchParams({ u: handle, p: key, f: 'json', ...params })}`);
        const body = (await response.json()) as { 'subsonic-response': { status: string } };
        if (body['subsonic-response'].status !== 'ok') throw new Error(JSON.stringify(body));
      };
      for (const [type, order] of [
        ['newest', 'al.created_at desc, al.id'],
        ['alphabeticalByName', 'al.title_key, al.id'],
        ['frequent', 'up.plays desc, al.title_key'],
      ] as const) {
        await compare(`${target.name} getAlbumList2 ${type}`, rest('getAlbumList2', { type, size: '50' }), 'raw SQL', () =>
          rawAlbumList(target.db, userId, order, type === 'frequent'),
        );
      }
      await compare(
        `${target.name} search3 "track 12"`,
        rest('search3', { query: 'track 12', artistCount: '20', albumCount: '20', songCount: '20' }),
        'raw SQL',
        () => rawSearch(target.db, userId, '%track 12%'),
      );
      // A sync client paging through the whole library: an empty query, 500 songs a page.
      await compare(
        `${target.name} search3 "" 500 songs`,
        rest('search3', { query: '', artistCount: '0', albumCount: '0', songCount: '500', songOffset: '1000' }),
        'raw SQL',
        () => rawSongPage(target.db, userId),
      );
    } finally {
      await hosts.close();
      await target.close();
    }
  }
}

async function seedLibrary(db: Database, keys: ReturnType<typeof deriveKeys>, tracks: number, albums: number) {
  const handle = `bench${Date.now()}`;
  const user = await db
    .insertInto('users')
    .values({ did: `did:plc:${handle}`, handle })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { key } = await createApiKey(db, keys, { userId: user.id }, { name: 'bench', description: '' });
  const artists = Math.max(1, Math.round(albums / 10));
  const source = await db.insertInto('library_sources').values({ kind: 'local', name: 'Music', root: '/srv/music' }).returning('id').executeTakeFirstOrThrow();
  await sql`insert into artists (name, name_key) select 'Artist ' || i, 'artist ' || i from generate_series(1, ${artists}) i`.execute(db);
  await sql`insert into albums (title, title_key, artist, artist_id, year, genre)
    select 'Album ' || i, 'album ' || i, a.name, a.id, 1960 + i % 60, (array['Rock','Jazz','Pop','Folk'])[1 + i % 4]
    from generate_series(1, ${albums}) i join artists a on a.name = 'Artist ' || (1 + i % ${artists})`.execute(db);
  await sql`insert into tracks (title, title_key, artist, artist_id, album, album_id, album_artist, track_number, disc_number, genre, duration)
    select 'Track ' || i, 'track ' || i, al.artist, al.artist_id, al.title, al.id, al.artist, 1 + i % 10, 1, al.genre, 180000 + i
    from generate_series(1, ${tracks}) i join albums al on al.title = 'Album ' || (1 + i % ${albums})`.execute(db);
  await sql`insert into library_directories (source_id, name, path) values (${source.id}, '', '')`.execute(db);
  await sql`insert into library_directories (source_id, parent_id, name, path)
    select ${source.id}, r.id, al.title, al.title from albums al, library_directories r where r.source_id = ${source.id} and r.path = ''`.execute(db);
  await sql`insert into library_files (source_id, directory_id, name, path, track_id, size, modified_at, content_type, suffix, duration_ms)
    select ${source.id}, d.id, t.title || '.mp3', t.album || '/' || t.title || '.mp3', t.id, 5000000, now(), 'audio/mpeg', 'mp3', t.duration
    from tracks t join library_directories d on d.source_id = ${source.id} and d.path = t.album`.execute(db);
  // A tenth of the songs played a few times each, and a hundred starred albums.
  await sql`insert into scrobbles (user_id, track_id, listened_at)
    select ${user.id}, t.id, now() - (n || ' hours')::interval from (select id, row_number() over (order by id) n from tracks) t where t.n % 10 = 0`.execute(
    db,
  );
  await sql`insert into stars (user_id, subject_kind, subject_id) select ${user.id}, 'album', id from albums order by id limit 100`.execute(db);
  await sql`analyze`.execute(db);
  return { userId: user.id, key, handle };
}

/**
 * Visible albums with a playable song: a page of 50 in the list's order, then the song count,
 * duration and plays getAlbumList2 shows for each; `played` joins the user's plays per album.
 */
function rawAlbumList(db: Database, userId: string, order: string, played: boolean) {
  const plays = played
    ? sql`join (select t.album_id, count(*) plays from scrobbles sc join tracks t on t.id = sc.track_id
        where sc.user_id = ${userId} group by t.album_id) up on up.album_id = al.id`
    : sql``;
  return sql`with page as (
      select al.id, row_number() over () n from (select al.id from albums al ${plays}
        where exists (select 1 from tracks t join library_files f on f.track_id = t.id join library_sources s on s.id = f.source_id
          where t.album_id = al.id and (s.user_id is null or s.user_id = ${userId}))
        order by ${sql.raw(order)} limit 50) al)
    select al.id, al.title, al.artist, al.year, al.genre, al.created_at, c.songs, c.duration, p.plays
    from page join albums al on al.id = page.id
    cross join lateral (select count(*) songs, sum(t.duration) duration from tracks t where t.album_id = al.id
      and exists (select 1 from library_files f join library_sources s on s.id = f.source_id where f.track_id = t.id and (s.user_id is null or s.user_id = ${userId}))) c
    cross join lateral (select count(*) plays from scrobbles sc join tracks pt on pt.id = sc.track_id where pt.album_id = al.id and sc.user_id = ${userId}) p
    order by page.n`.execute(db);
}

/** Matching artists, albums and songs with a playable file, 20 of each, with their display fields. */
async function rawSearch(db: Database, userId: string, like: string) {
  const playable = (track: string) => sql`exists (select 1 from library_files f join library_sources s on s.id = f.source_id
    where f.track_id = ${sql.ref(track)} and (s.user_id is null or s.user_id = ${userId}))`;
  await Promise.all([
    sql`select ar.id, ar.name from artists ar where ar.name ilike ${like}
      and exists (select 1 from tracks t where t.artist_id = ar.id and ${playable('t.id')}) order by ar.name_key limit 20`.execute(db),
    sql`select al.id, al.title, al.artist from albums al where (al.title ilike ${like} or al.artist ilike ${like})
      and exists (select 1 from tracks t where t.album_id = al.id and ${playable('t.id')}) order by al.title_key limit 20`.execute(db),
    sql`select t.id, t.title, t.artist, t.album, f.path, f.size from tracks t
      join lateral (select f.path, f.size from library_files f join library_sources s on s.id = f.source_id
        where f.track_id = t.id and (s.user_id is null or s.user_id = ${userId}) order by f.path limit 1) f on true
      where t.title ilike ${like} or t.artist ilike ${like} or t.album ilike ${like} order by t.title_key limit 20`.execute(db),
  ]);
}

/** The third page of 500 playable songs, with each song's file fields. */
function rawSongPage(db: Database, userId: string) {
  return sql`select t.id, t.title, t.artist, t.album, t.track_number, t.genre, f.path, f.size, f.content_type, f.suffix, f.duration_ms
    from tracks t join lateral (select f.path, f.size, f.content_type, f.suffix, f.duration_ms from library_files f join library_sources s on s.id = f.source_id
      where f.track_id = t.id and (s.user_id is null or s.user_id = ${userId}) order by f.path limit 1) f on true
    order by t.title_key, t.id limit 500 offset 1000`.execute(db);
}
