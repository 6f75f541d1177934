import { sql } from 'kysely';
import { encodeCursor } from '../src/core/scrobbling/feed/cursor.ts';
import { scrobblePage } from '../src/core/scrobbling/feed/page.ts';
import { benchTargets, compare } from './harness.ts';
import { seedRealistic } from './seed.ts';

/**
 * A heavy user's feed, 50 a page, among many users' interleaved plays: the first page against
 * a deep one (past half of their plays), which no index choice can make cheaper than the first.
 */
export async function feedPageBenchmark(): Promise<void> {
  const heavyPlays = Number(process.env.BENCH_HEAVY_PLAYS ?? 100_000);
  const year = new Date().getUTCFullYear() - 1;
  console.log(`feed page: 50 of a heavy user's ${heavyPlays} plays in ${year}, page 1 vs a deep page, among other users' plays`);
  for await (const target of benchTargets()) {
    try {
      const { heavy } = await seedRealistic(target.db, { heavy: [{ handle: 'heavy', plays: heavyPlays, year }] });
      const scope = { kind: 'user' as const, userId: heavy.heavy!.id };
      const middle = await sql<{
        listenedAt: string;
        id: string;
      }>`select to_char(listened_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as "listenedAt", id
        from scrobbles where user_id = ${scope.userId} order by listened_at desc, id desc offset ${Math.floor(heavyPlays / 2)} limit 1`.execute(target.db);
      const cursor = encodeCursor(middle.rows[0]!);
      await compare(
        `${target.name} page 1`,
        () => scrobblePage(target.db, null, scope, { limit: 50 }),
        'deep page',
        () => scrobblePage(target.db, null, scope, { limit: 50, cursor }),
      );
    } finally {
      await target.close();
    }
  }
}
