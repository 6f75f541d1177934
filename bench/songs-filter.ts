import { sql } from 'kysely';
import { listSongs } from '../src/catalog/song-operations.ts';
import { benchTargets, compare, seedScrobbles } from './harness.ts';

const FILTER = 'title==*love*';

/** getSongs with a wildcard RSQL filter over a large catalog: the query layer against hand-written SQL on the same database. */
export async function songsFilterBenchmark(): Promise<void> {
  const songs = Number(process.env.BENCH_SONGS ?? 200_000);
  const scrobbles = Number(process.env.BENCH_SCROBBLES ?? 100_000);
  console.log(`songs filter: getSongs ${FILTER}, first 50 of ${songs} songs (${scrobbles} scrobbles)`);
  for await (const target of benchTargets()) {
    try {
      await seedScrobbles(target.db, scrobbles, songs);
      // One song in 40 has "love" in its title; creation times spread so the newest-first order means something.
      await sql`update tracks set
          title = case when duration % 40 = 0 then title || ' of Love' else title end,
          created_at = now() - (duration - 180000) * interval '1 minute'`.execute(target.db);
      await sql`analyze tracks`.execute(target.db);
      const viaQueryLayer = () => listSongs(target.db, { filter: FILTER, limit: 50, offset: 0 }, null);
      const viaRawSql = () =>
        sql`select page.*, plays.play_count, plays.unique_listeners,
              (select count(*)::int from stars where subject_kind = 'song' and subject_id = page.id) as "likesCount", false as liked
            from (select t.* from tracks t where t.title ilike '%love%'
                    and (exists (select 1 from scrobbles s where s.track_id = t.id offset 0) or exists (select 1 from filehost_files f where f.track_id = t.id offset 0))
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
