import { sql } from 'kysely';
import type { Database } from '../src/db/index.ts';
import { wrappedFor } from '../src/stats/index.ts';
import { benchTargets, compare, seedScrobbles } from './harness.ts';

const YEAR = 2024;

/** The same aggregates as getWrapped, one plain statement each, over the calendar year in UTC. */
async function rawSqlWrapped(db: Database, userId: string): Promise<void> {
  const inYear = sql`s.user_id = ${userId} and s.listened_at >= '2024-01-01T00:00:00Z' and s.listened_at < '2025-01-01T00:00:00Z'`;
  const plays = sql`scrobbles s join tracks t on t.id = s.track_id`;
  const statements = [
    sql`select count(*), coalesce(sum(t.duration), 0) / 60000 from ${plays} where ${inYear}`,
    sql`select a.id, a.name, a.picture, a.uri, count(*) c from ${plays} join artists a on a.id = t.artist_id where ${inYear} group by a.id order by c desc, a.name, a.id limit 5`,
    sql`select t.id, t.title, t.artist, t.album_art, t.uri, count(*) c from ${plays} where ${inYear} group by t.id order by c desc, t.title, t.id limit 5`,
    sql`select al.id, al.title, count(*) c from ${plays} join albums al on al.id = t.album_id where ${inYear} group by al.id order by c desc, al.title, al.id limit 6`,
    sql`select t.genre, count(*) c from ${plays} where ${inYear} and t.genre is not null group by t.genre order by c desc, t.genre limit 10`,
    sql`select extract(month from s.listened_at at time zone 'UTC') m, count(*) from scrobbles s where ${inYear} group by m order by m`,
    sql`select (s.listened_at at time zone 'UTC')::date d, count(*) from scrobbles s where ${inYear} group by d order by d`,
    sql`select extract(hour from s.listened_at at time zone 'UTC') h, count(*) c from scrobbles s where ${inYear} group by h order by c desc, h limit 1`,
    sql`select count(*) from (select t.artist_id from ${plays} where s.user_id = ${userId} group by t.artist_id
          having min(s.listened_at) >= '2024-01-01T00:00:00Z' and min(s.listened_at) < '2025-01-01T00:00:00Z') first_heard`,
    sql`select max(n) from (select count(*) n from (select d, d - (row_number() over (order by d))::int g
          from (select distinct (s.listened_at at time zone 'UTC')::date d from scrobbles s where ${inYear}) days) runs group by g) streaks`,
    sql`select t.title, t.artist, s.listened_at, t.uri from ${plays} where ${inYear} order by s.listened_at, s.id limit 1`,
    sql`select t.title, t.artist, s.listened_at, t.uri from ${plays} where ${inYear} order by s.listened_at desc, s.id desc limit 1`,
  ];
  for (const statement of statements) await statement.execute(db);
}

/** A calendar-year Wrapped over one user's year of plays: the real service against plain per-aggregate SQL. */
export async function wrappedBenchmark(): Promise<void> {
  const count = Number(process.env.BENCH_WRAPPED_SCROBBLES ?? process.env.BENCH_SCROBBLES ?? 100_000);
  const runs = Number(process.env.BENCH_RUNS ?? 11);
  console.log(`wrapped: calendar year ${YEAR} over ${count} scrobbles of one user`);
  for await (const target of benchTargets()) {
    try {
      const userId = await seedScrobbles(target.db, count, 1000, new Date(`${YEAR + 1}-01-01T00:00:00Z`));
      const { did } = await target.db.selectFrom('users').select('did').where('id', '=', userId).executeTakeFirstOrThrow();
      const viaService = () => wrappedFor(target.db, { actor: did, period: 'year', year: YEAR, timeZone: 'UTC' });
      await compare(`${target.name} getWrapped service`, viaService, 'raw SQL', () => rawSqlWrapped(target.db, userId), runs);
    } finally {
      await target.close();
    }
  }
}
