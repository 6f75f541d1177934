import { sql } from 'kysely';
import type { Database } from '../src/toolkit/db/index.ts';
import { searchCatalog } from '../src/core/catalog/search.ts';
import { rebuildRollups } from '../src/core/stats/rollups/rebuild.ts';
import { benchTargets, compare } from './harness.ts';
import { seedRealistic } from './seed.ts';

const Q = 'love';
const LIMIT = 10;

/** The same three lists by a raw ILIKE on the names alone (no folding), ranked alike, without play counts. */
function rawIlike(db: Database) {
  const pattern = `%${Q}%`;
  const listed = (column: string) => sql`exists (select 1 from tracks lt join scrobbles s on s.track_id = lt.id where lt.${sql.ref(column)} = x.id)`;
  const ranked = (table: string, name: string, extra = sql``) =>
    sql`select x.* from ${sql.table(table)} x where (x.${sql.ref(name)} ilike ${pattern} ${extra})
          and ${listed(table === 'artists' ? 'artist_id' : 'album_id')}
        order by lower(x.${sql.ref(name)}) = ${Q} desc, length(x.${sql.ref(name)}), x.${sql.ref(name)}, x.id limit ${LIMIT}`.execute(db);
  const songs = sql`select t.* from tracks t where (t.title ilike ${pattern} or t.artist ilike ${pattern})
        and exists (select 1 from scrobbles s where s.track_id = t.id)
      order by lower(t.title) = ${Q} desc, length(t.title), t.title, t.id limit ${LIMIT}`.execute(db);
  return Promise.all([ranked('artists', 'name'), ranked('albums', 'title'), songs]);
}

/** app.svc.feed.search, accents folded through the match keys, against a plain ILIKE on the names over a large catalog. */
export async function searchBenchmark(): Promise<void> {
  const songs = Number(process.env.BENCH_SONGS ?? 200_000);
  console.log(`search: q=${Q}, ${LIMIT} of each kind, over ${songs} songs played by a realistic seed's users`);
  for await (const target of benchTargets()) {
    try {
      await seedRealistic(target.db, { tracks: songs });
      // Steady state: the fold keeps the queue to about a second's worth; the seed leaves it all queued.
      await rebuildRollups(target.db);
      const folded = () => searchCatalog(target.db, Q, LIMIT, null);
      await compare(`${target.name} search (folded, with play counts and users)`, folded, 'raw ILIKE', () => rawIlike(target.db));
    } finally {
      await target.close();
    }
  }
}
