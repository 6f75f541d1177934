import { sql } from 'kysely';
import { playedCount, topAlbums, topArtists, topSongs } from '../src/core/catalog/actor-top.ts';
import { ALL_TIME } from '../src/core/stats/rollups/reads.ts';
import { rebuildRollups } from '../src/core/stats/rollups/rebuild.ts';
import { benchTargets, compare } from './harness.ts';
import { seedRealistic } from './seed.ts';

const PAGE = { limit: 50, offset: 0 };

/**
 * A heavy user's all-time top artists, albums and songs (getActorArtists/Albums/Songs, user.getTop*,
 * period overall) and how many songs they played (user.getTopTracks' total) against counting their raw plays.
 */
export async function allTimeTopBenchmark(): Promise<void> {
  const plays = Number(process.env.BENCH_HEAVY_PLAYS ?? 100_000);
  console.log(`all-time top: 50 artists, 50 albums and 50 songs of a user with ${plays} plays, in a realistic seed`);
  for await (const target of benchTargets()) {
    try {
      const seeded = await seedRealistic(target.db, { heavy: [{ handle: 'heavy', plays, year: new Date().getUTCFullYear() - 1 }] });
      // Steady state: the fold keeps the queue to about a second's worth; the seed leaves it all queued.
      await rebuildRollups(target.db);
      const user = seeded.heavy.heavy!.id;
      const rawArtists = () =>
        sql`select ar.*, c.plays from (select t.artist_id, count(*)::int as plays from scrobbles s join tracks t on t.id = s.track_id
              where s.user_id = ${user} and t.artist_id is not null group by 1) c join artists ar on ar.id = c.artist_id
            order by c.plays desc, ar.id limit 50`.execute(target.db);
      const rawAlbums = () =>
        sql`select al.*, c.plays from (select t.album_id, count(*)::int as plays from scrobbles s join tracks t on t.id = s.track_id
              where s.user_id = ${user} and t.album_id is not null group by 1) c join albums al on al.id = c.album_id
            order by c.plays desc, al.id limit 50`.execute(target.db);
      const rawSongs = () =>
        sql`select t.*, c.plays from (select track_id, count(*)::int as plays from scrobbles where user_id = ${user} group by 1) c join tracks t on t.id = c.track_id
            order by c.plays desc, t.id limit 50`.execute(target.db);
      await compare(`${target.name} top artists, all time`, () => topArtists(target.db, user, ALL_TIME, PAGE), 'raw count', rawArtists);
      await compare(`${target.name} top albums, all time`, () => topAlbums(target.db, user, ALL_TIME, PAGE), 'raw count', rawAlbums);
      await compare(`${target.name} top songs, all time`, () => topSongs(target.db, user, ALL_TIME, PAGE, null), 'raw count', rawSongs);
      const rawPlayed = () => sql`select count(distinct track_id)::int from scrobbles where user_id = ${user}`.execute(target.db);
      await compare(`${target.name} songs played, all time`, () => playedCount(target.db, user, ALL_TIME, 'track'), 'raw count', rawPlayed);
    } finally {
      await target.close();
    }
  }
}
