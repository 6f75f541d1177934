import { sql } from 'kysely';
import { listensPage, listenTimestamps } from '../src/adapters/listenbrainz/listens.ts';
import { benchTargets, compare } from './harness.ts';
import { seedRealistic } from './seed.ts';

/** GET /1/user/<name>/listens: a page of 25 and the user's first and last timestamps, against hand-written SQL. */
export async function listenBrainzListensBenchmark(): Promise<void> {
  const count = Number(process.env.BENCH_HEAVY_PLAYS ?? 100_000);
  const year = new Date().getUTCFullYear() - 1;
  const pageSize = Number(process.env.BENCH_PAGE_SIZE ?? 25);
  console.log(`listenbrainz listens: ${pageSize} of a heavy user's ${count} plays in ${year} among other users' plays, newest first and after min_ts`);
  for await (const target of benchTargets()) {
    try {
      const { heavy } = await seedRealistic(target.db, { heavy: [{ handle: 'heavy', plays: count, year }] });
      const user = heavy.heavy!;
      const userId = user.id;
      const middle = Date.UTC(year, 6, 1) / 1000;
      for (const [label, window, order] of [
        ['newest', { count: pageSize }, sql`s.listened_at desc, s.id desc`],
        ['after min_ts', { count: pageSize, minTs: middle }, sql`s.listened_at asc, s.id asc`],
      ] as const) {
        const after = 'minTs' in window ? sql`and s.listened_at > to_timestamp(${window.minTs})` : sql``;
        await compare(
          `${target.name} ${label}: query layer`,
          () => Promise.all([listensPage(target.db, user, window), listenTimestamps(target.db, userId)]),
          'raw SQL',
          () =>
            Promise.all([
              sql`select s.listened_at, s.created_at, s.submitted, t.id, t.artist, t.title, coalesce(t.album, al.title), coalesce(t.album_artist, al.artist),
                    t.duration, t.track_number, t.disc_number, t.mbid, al.mbid, ar.mbid, t.isrc, t.streaming_link_a, t.tags
                  from scrobbles s join tracks t on t.id = s.track_id left join albums al on al.id = t.album_id left join artists ar on ar.id = t.artist_id
                  where s.user_id = ${userId} ${after} order by ${order} limit ${pageSize}`.execute(target.db),
              sql`select max(listened_at), min(listened_at) from scrobbles where user_id = ${userId}`.execute(target.db),
            ]),
        );
      }
    } finally {
      await target.close();
    }
  }
}
