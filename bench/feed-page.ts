import { sql } from 'kysely';
import { benchTargets, compare, seedScrobbles } from './harness.ts';

/** A user's most recent page of scrobbles: the query layer against hand-written SQL on the same database. */
export async function feedPageBenchmark(): Promise<void> {
  const count = Number(process.env.BENCH_SCROBBLES ?? 100_000);
  console.log(`feed page: latest 50 of ${count} scrobbles for one user`);
  for await (const target of benchTargets()) {
    try {
      const userId = await seedScrobbles(target.db, count);
      const viaQueryLayer = () =>
        target.db
          .selectFrom('scrobbles')
          .innerJoin('tracks', 'tracks.id', 'scrobbles.track_id')
          .select(['scrobbles.id', 'scrobbles.listened_at', 'tracks.title', 'tracks.artist'])
          .where('scrobbles.user_id', '=', userId)
          .orderBy('scrobbles.listened_at', 'desc')
          .orderBy('scrobbles.id', 'desc')
          .limit(50)
          .execute();
      const viaRawSql = () =>
        sql`select s.id, s.listened_at, t.title, t.artist from scrobbles s join tracks t on t.id = s.track_id
            where s.user_id = ${userId} order by s.listened_at desc, s.id desc limit 50`.execute(target.db);
      await compare(`${target.name} query layer`, viaQueryLayer, 'raw SQL', viaRawSql);
    } finally {
      await target.close();
    }
  }
}
