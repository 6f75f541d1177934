/**
 * The fold job vacuums the rollups once it has folded enough changes, not before, and the statistics
 * read the same after; the fold analyzes a queue grown large, again only once it has doubled, and so
 * does an import's last batch.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { importBatch } from '../../scrobbling/imports/batch.ts';
import type { Database } from '../../../toolkit/db/index.ts';
import { testBackends } from '../../../toolkit/db/testing.ts';
import { foldAll, statsFoldJob } from './fold.ts';
import { analyzeGrownQueue, QUEUE_ANALYZE_AFTER } from './vacuum.ts';
import { assertPlayedCounts, createUser, FIRST, playInTurn, seedCatalog } from './rollups-testing.ts';

/** `count` plays of `user`, one a minute from `from`, over the tracks in turn. */
const play = (db: Database, user: string, tracks: string[], count: number, from: number) => playInTurn(db, user, tracks, count, from, 60_000);

const vacuums = async (db: Database) =>
  (await sql<{ n: number }>`select vacuum_count::int as n from pg_stat_user_tables where relid = 'stats_track_totals'::regclass`.execute(db)).rows[0]!.n;

const queueAnalyzes = async (db: Database) =>
  (await sql<{ n: number }>`select analyze_count::int as n from pg_stat_user_tables where relid = 'stats_queue'::regclass`.execute(db)).rows[0]!.n;

for (const backend of testBackends()) {
  describe(`the fold's vacuum and analyze [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    before(async () => {
      ({ db, close } = await backend.open());
    });
    after(() => close());

    test('rollups are vacuumed once the job has folded enough changes, and read the same after', async () => {
      const tracks = await seedCatalog(db);
      const user = await createUser(db, 'ana');
      const job = statsFoldJob(db, 200);
      const run = () => job.run(new AbortController().signal);
      const before = await vacuums(db);
      await play(db, user, tracks, 150, FIRST);
      await run();
      assert.equal(await vacuums(db), before, 'not yet: 150 of 200 folded');
      await play(db, user, tracks, 100, FIRST + 86_400_000);
      await run();
      assert.equal(await vacuums(db), before + 1, 'vacuumed: 250 folded');
      await assertPlayedCounts(db, user, 'after the vacuum');
      await play(db, user, tracks, 100, FIRST + 2 * 86_400_000);
      await run();
      assert.equal(await vacuums(db), before + 1, 'the count starts again after a vacuum');
    });

    test('the fold analyzes a queue grown large before taking it, and again only once it has doubled', async () => {
      const tracks = await seedCatalog(db);
      const user = await createUser(db, 'ben');
      const before = await queueAnalyzes(db);
      await play(db, user, tracks, 250, FIRST);
      assert.equal(await foldAll(db, undefined, 200), 250);
      assert.equal(await queueAnalyzes(db), before + 1, 'analyzed: 250 queued, 200 needed');
      await assertPlayedCounts(db, user, 'after the fold');
      await play(db, user, tracks, 300, FIRST + 86_400_000);
      assert.equal(await analyzeGrownQueue(db, 200), false, 'not yet: 300 queued, under twice the 250 analyzed');
      await play(db, user, tracks, 250, FIRST + 2 * 86_400_000);
      assert.equal(await analyzeGrownQueue(db, 200), true, '550 queued');
      assert.equal(await queueAnalyzes(db), before + 2);
      assert.equal(await analyzeGrownQueue(db, 200), false, 'analyzed at this size already');
      await assertPlayedCounts(db, user, 'with the queue analyzed');
    });

    test("an import's last batch analyzes the queue it grew, its earlier batches do not", async () => {
      const user = await createUser(db, 'cy');
      const tracks = await db.selectFrom('tracks').select(['id', 'artist', 'title']).orderBy('title').limit(2).execute();
      // The fold's own analyses (the test above) left the queue's size known; folded and
      // truncated, it is unknown again, as after a server's steady state.
      await foldAll(db);
      await play(
        db,
        user,
        tracks.map((track) => track.id),
        QUEUE_ANALYZE_AFTER,
        FIRST + 10 * 86_400_000,
      );
      const before = await queueAnalyzes(db);
      const listen = ({ artist, title }: (typeof tracks)[number], at: number) => ({
        artist,
        title,
        listenedAt: new Date(at).toISOString(),
        submitted: { artist, title },
      });
      const batch = { fingerprint: 'f'.repeat(64), format: 'listenbrainz' as const, records: 1 };
      await importBatch(db, { unmatchedScrobbles: 'skip' }, user, { ...batch, from: 0, listens: [listen(tracks[0]!, FIRST - 60_000)], complete: false });
      assert.equal(await queueAnalyzes(db), before, 'not analyzed by a batch before the last');
      await importBatch(db, { unmatchedScrobbles: 'skip' }, user, { ...batch, from: 1, listens: [listen(tracks[1]!, FIRST - 120_000)], complete: true });
      assert.equal(await queueAnalyzes(db), before + 1, 'analyzed by the last batch');
      assert.equal(
        await sql<{ n: number }>`select count(*)::int as n from scrobbles where user_id = ${user} and source like 'import:%'`
          .execute(db)
          .then((r) => r.rows[0]!.n),
        2,
      );
      await assertPlayedCounts(db, user, 'after the import');
    });
  });
}
