import { sql } from 'kysely';
import { listSongs } from '../src/core/catalog/songs.ts';
import { rebuildRollups } from '../src/core/stats/rollups/rebuild.ts';
import { benchTargets, compare } from './harness.ts';
import { seedRealistic } from './seed.ts';

const FILTER = 'title==*love*';

/** getSongs with a wildcard RSQL filter over a large catalog: the query layer against hand-written SQL on the same database. */
export async function songsFilterBenchmark(): Promise<void> {
  const songs = Number(process.env.BENCH_SONGS ?? 200_000);
  console.log(`songs filter: getSongs ${FILTER}, first 50 of ${songs} songs played by a realistic seed's users`);
  for await (const target of benchTargets()) {
    try {
      // One song in twenty has "Love" in its title; creation times are spread, so newest-first means something.
      await seedRealistic(target.db, { tracks: songs });
      // Steady state: the fold keeps the queue to about a second's worth; the seed leaves it all queued.
      await rebuildRollups(target.db);
      const viaQueryLayer = () => listSongs(target.db, { filter: FILTER, limit: 50, offset: 0 }, null);
      const viaRawSql = () =>
        sql`select page.*, plays.play_count, plays.unique_listeners,
              (select count(*)::int from stars where subject_kind = 'song' and subject_id = page.id) as "likesCount", false as liked
            from (select t.* from tracks t where t.title ilike '%love%'
                    and (exists (select 1 from scrobbles s where s.track_id = t.id offset 0) or exists (select 1 from library_files f where f.track_id = t.id offset 0))
                  order by t.created_at desc, t.id desc limit 50) page
            cross join lateral (
              select count(*)::int as play_count, count(distinct s.user_id)::int as unique_listeners from scrobbles s where s.track_id = page.id
            ) plays
            order by page.created_at desc, page.id desc`.execute(target.db);
      const [measured, baseline] = await Promise.all([viaQueryLayer(), viaRawSql()]);
      if (measured.length !== baseline.rows.length) throw new Error(`query layer found ${measured.length} songs, raw SQL ${baseline.rows.length}`);
      await compare(`${target.name} query layer`, viaQueryLayer, 'raw SQL', viaRawSql);
    } finally {
      await target.close();
    }
  }
}
