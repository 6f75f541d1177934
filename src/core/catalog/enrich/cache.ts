import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import type { ResponseCache } from '../../providers/musicbrainz/client.ts';

/** Long enough that a catalog's songs of one artist or release share lookups; short enough that MusicBrainz's later corrections arrive. */
const KEPT = sql`interval '30 days'`;

/** MusicBrainz's answers kept in the database (enrichment_cache), so every process and every restart shares them. */
export function databaseCache(db: Database): ResponseCache {
  return {
    async get(url) {
      const row = await db
        .selectFrom('enrichment_cache')
        .select('body')
        .where('url', '=', url)
        .where('fetched_at', '>', sql<Date>`now() - ${KEPT}`)
        .executeTakeFirst();
      return row ? { body: row.body } : undefined;
    },
    async put(url, body) {
      const text = body === null ? null : JSON.stringify(body);
      await db
        .insertInto('enrichment_cache')
        .values({ url, body: text })
        .onConflict((conflict) => conflict.column('url').doUpdateSet({ body: text, fetched_at: sql<Date>`now()` }))
        .execute();
    },
  };
}

export async function pruneCache(db: Database): Promise<void> {
  await db.deleteFrom('enrichment_cache').where('fetched_at', '<', sql<Date>`now() - ${KEPT}`).execute();
}
