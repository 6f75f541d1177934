/**
 * Statistics reads that never pay for a big queue (queue-marks.ts): stats_queue_users always
 * agrees with the queue and bounds its times, a user with nothing queued reads no queue, nor does a
 * window none of the user's queued plays can fall in, nor a read of plays leaving when none are
 * queued, nor an all-time read once the step ahead of the fold has totalled what is queued; a
 * queued play counts once before and after it is totalled and folded, an import's end totals its
 * user's small rest, and a drained queue's space is reclaimed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql, type RawBuilder } from 'kysely';
import { importBatch } from '../../scrobbling/imports/batch.ts';
import { openDatabase, type Database } from '../../../toolkit/db/index.ts';
import { testBackends } from '../../../toolkit/db/testing.ts';
import { foldAll, foldBatch } from './fold.ts';
import { reclaimQueue } from './queue-marks.ts';
import { totalAhead, totalAtImportEnd, totalQueuedOf } from './totals-ahead.ts';
import { ALL_TIME, listeningParts, trackPlays, type PlaysWindow } from './reads.ts';
import { playInTurn } from './rollups-testing.ts';

const DAY = 86_400_000;

async function seed(db: Database): Promise<{ tracks: string[]; users: string[] }> {
  await sql`insert into tracks (title, title_key, artist) select 'Track ' || i, 'track ' || i, 'Artist' from generate_series(1, 20) i`.execute(db);
  const tracks = (await db.selectFrom('tracks').select('id').orderBy('title').execute()).map((row) => row.id);
  const users = await db
    .insertInto('users')
    .values(['quiet', 'importer', 'live'].map((handle) => ({ did: `did:plc:${handle}`, handle })))
    .returning('id')
    .execute();
  return { tracks, users: users.map((row) => row.id) };
}

/** `count` plays of `user`, one an hour from `from`, over the tracks in turn. */
const play = (db: Database, user: string, tracks: string[], count: number, from: number) => playInTurn(db, user, tracks, count, from, 3_600_000);

/** The queue per user (its rows, and those the all-time totals count already) as counted in stats_queue_users, and as it is. */
async function counted(db: Database) {
  const marks = await sql<{
    user_id: string;
    queued: number;
  }>`select user_id, queued::int as queued, totalled::int as totalled from stats_queue_users order by 1`.execute(db);
  const queue = await sql<{
    user_id: string;
    queued: number;
  }>`select user_id, count(*)::int as queued, (count(*) filter (where totalled))::int as totalled from stats_queue group by 1 order by 1`.execute(db);
  return { marks: marks.rows, queue: queue.rows };
}

/** The per-user counts are the queue's, every queued play lies in its user's span, and every queued removal is flagged as leaving. */
async function agree(db: Database): Promise<void> {
  const { marks, queue } = await counted(db);
  assert.deepEqual(marks, queue);
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from stats_queue q join stats_queue_users m on m.user_id = q.user_id
    where q.listened_at < m.first_at or q.listened_at > m.last_at or (q.delta < 0 and not m.leaving)`.execute(db);
  assert.equal(rows[0]!.n, 0);
}

/** The lines of a read (by default `user`'s plays in `window`) that scan stats_queue, from its executed plan. */
async function queueScans(db: Database, user: string, window: PlaysWindow, read: RawBuilder<unknown> = trackPlays(user, window)): Promise<string[]> {
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain (analyze, costs off, timing off, summary off) ${read}`.execute(db);
  return rows.map((row) => row['QUERY PLAN']).filter((line) => /Scan on stats_queue\b/.test(line));
}

/** `user`'s queued plays leaving in `window` (the only rows such a read takes), as (track_id, plays). */
const leavingPlays = (user: string, window: PlaysWindow) => listeningParts(user, window, () => false, 'removals').parts[0]!;

/** Deletes `user`'s plays before `at` (ms), which queues their removals. */
const deletePlaysBefore = (db: Database, user: string, at: number) =>
  db.deleteFrom('scrobbles').where('user_id', '=', user).where('listened_at', '<', new Date(at)).execute();

const scanned = (lines: string[]) => lines.length > 0 && lines.some((line) => !line.includes('never executed'));

async function rawTotal(db: Database, user: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from scrobbles where user_id = ${user}`.execute(db);
  return rows[0]!.n;
}

async function readTotal(db: Database, user: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select coalesce(sum(plays), 0)::int as n from (${trackPlays(user, ALL_TIME)}) c`.execute(db);
  return rows[0]!.n;
}

for (const backend of testBackends()) {
  describe(`the statistics queue's per-user count [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    let tracks: string[];
    let quiet: string;
    let importer: string;
    let live: string;
    before(async () => {
      ({ db, close } = await backend.open());
      ({
        tracks,
        users: [quiet, importer, live],
      } = (await seed(db)) as { tracks: string[]; users: [string, string, string] });
    });
    after(() => close());

    test('a user with nothing queued reads no queue, whatever others have queued', async () => {
      await play(db, quiet, tracks, 30, Date.UTC(2024, 0, 1));
      await foldAll(db);
      await play(db, importer, tracks, 500, Date.UTC(2024, 0, 1));
      await agree(db);
      const quietScans = await queueScans(db, quiet, ALL_TIME);
      assert.ok(quietScans.length > 0);
      assert.ok(
        quietScans.every((line) => line.includes('never executed')),
        quietScans.join('\n'),
      );
      assert.ok((await queueScans(db, importer, ALL_TIME)).some((line) => !line.includes('never executed')));
      assert.equal(await readTotal(db, quiet), 30);
    });

    test('a read during a large queue is exact, and queued plays count once before and after they are folded', async () => {
      await play(db, importer, tracks, 3_500, Date.UTC(2023, 0, 1));
      await play(db, live, tracks, 5, Date.now() - DAY);
      const total = await rawTotal(db, importer);
      assert.equal(await readTotal(db, importer), total);
      for (let taken = await foldBatch(db); taken > 0; taken = await foldBatch(db)) {
        await agree(db);
        assert.equal(await readTotal(db, importer), total);
        assert.equal(await readTotal(db, live), 5);
      }
      assert.deepEqual(await counted(db), { marks: [], queue: [] });
      // Deletions and re-pointing queue -1 rows too; re-timing one user's plays onto another's moves both counts.
      await deletePlaysBefore(db, importer, Date.UTC(2023, 1, 1));
      await sql`update scrobbles set track_id = ${tracks[0]!} where user_id = ${importer} and listened_at < ${new Date(Date.UTC(2023, 2, 1))}`.execute(db);
      await sql`update scrobbles set user_id = ${live} where user_id = ${importer} and listened_at < ${new Date(Date.UTC(2023, 3, 1))}`.execute(db);
      await agree(db);
      for (const user of [importer, live, quiet]) assert.equal(await readTotal(db, user), await rawTotal(db, user));
      await foldAll(db);
      for (const user of [importer, live, quiet]) assert.equal(await readTotal(db, user), await rawTotal(db, user));
      assert.deepEqual(await counted(db), { marks: [], queue: [] });
    });

    test('once the step ahead of the fold has totalled an import, all-time reads skip the queue and stay exact while it is folded', async () => {
      await foldAll(db);
      await play(db, importer, tracks, 3_500, Date.UTC(2022, 0, 1));
      const total = await rawTotal(db, importer);
      const year = { start: new Date(Date.UTC(2022, 0, 1)), end: new Date(Date.UTC(2023, 0, 1)) };
      assert.ok(scanned(await queueScans(db, importer, ALL_TIME)));
      assert.equal(await totalAhead(db), 3_500);
      await agree(db);
      assert.ok(!scanned(await queueScans(db, importer, ALL_TIME)));
      assert.equal(await readTotal(db, importer), total);
      // A window's rollups count a totalled play only once it is folded: until then its reads add it from the queue.
      assert.ok(scanned(await queueScans(db, importer, year)));
      const inYear = async () =>
        (await sql<{ n: number }>`select coalesce(sum(plays), 0)::int as n from (${trackPlays(importer, year)}) c`.execute(db)).rows[0]!.n;
      assert.equal(await inYear(), 3_500);
      await foldBatch(db);
      await agree(db);
      assert.equal(await readTotal(db, importer), total);
      assert.equal(await inYear(), 3_500);
      // A deletion queues removals not totalled: all-time reads take them from the queue until the next step.
      await deletePlaysBefore(db, importer, Date.UTC(2022, 1, 1));
      const left = await rawTotal(db, importer);
      assert.ok(scanned(await queueScans(db, importer, ALL_TIME)));
      assert.equal(await readTotal(db, importer), left);
      // Fewer than a fold batch's worth: the fold takes them; the step runs only when asked to.
      assert.equal(await totalAhead(db), 0);
      assert.ok(scanned(await queueScans(db, importer, ALL_TIME)));
      await totalAhead(db, undefined, 1);
      await agree(db);
      assert.ok(!scanned(await queueScans(db, importer, ALL_TIME)));
      assert.equal(await readTotal(db, importer), left);
      await foldAll(db);
      assert.equal(await readTotal(db, importer), left);
      assert.equal(await inYear(), left - (total - 3_500));
      assert.deepEqual(await counted(db), { marks: [], queue: [] });
    });

    test("a user's own rest is totalled when it is small (an import's end), not when it is larger, and no other user's", async () => {
      await foldAll(db);
      await play(db, live, tracks, 30, Date.UTC(2007, 0, 1));
      await play(db, importer, tracks, totalAtImportEnd(0) + 1, Date.UTC(2005, 0, 1));
      assert.equal(await totalQueuedOf(db, importer, totalAtImportEnd(0)), 0, 'more than a fold job leaves behind an import: left to the job');
      await totalAhead(db, undefined, 1);
      const total = await rawTotal(db, importer);
      await play(db, importer, tracks, 40, Date.UTC(2004, 0, 1));
      assert.ok(scanned(await queueScans(db, importer, ALL_TIME)));
      assert.equal(await totalQueuedOf(db, live, totalAtImportEnd(0)), 0, 'already totalled above');
      assert.equal(await totalQueuedOf(db, importer, totalAtImportEnd(0)), 40);
      await agree(db);
      assert.ok(!scanned(await queueScans(db, importer, ALL_TIME)));
      assert.equal(await readTotal(db, importer), total + 40);
      await play(db, live, tracks, 5, Date.UTC(2007, 5, 1));
      assert.equal(await totalQueuedOf(db, importer, totalAtImportEnd(0)), 0, 'nothing of its own left');
      assert.ok(scanned(await queueScans(db, live, ALL_TIME)), "another user's rows stay untotalled");
      // An import's last batch totals its user's rest; the batches before it do not.
      const batch = { fingerprint: 'e'.repeat(64), format: 'listenbrainz' as const, records: 1 };
      const listen = (at: number) => [
        { artist: 'Artist', title: 'Track 1', listenedAt: new Date(at).toISOString(), submitted: { artist: 'Artist', title: 'Track 1' } },
      ];
      await importBatch(db, { unmatchedScrobbles: 'store' }, importer, { ...batch, from: 0, listens: listen(Date.UTC(2003, 0, 1)), complete: false });
      assert.ok(scanned(await queueScans(db, importer, ALL_TIME)));
      await importBatch(db, { unmatchedScrobbles: 'store' }, importer, { ...batch, from: 1, listens: listen(Date.UTC(2003, 0, 2)), complete: true });
      assert.ok(!scanned(await queueScans(db, importer, ALL_TIME)));
      await agree(db);
      await foldAll(db);
      for (const user of [importer, live]) assert.equal(await readTotal(db, user), await rawTotal(db, user));
      assert.deepEqual(await counted(db), { marks: [], queue: [] });
    });

    test("a window read skips the queue when none of the user's queued plays can fall in it, and is exact either way", async () => {
      await foldAll(db);
      const start = Date.UTC(2022, 5, 1);
      const window = { start: new Date(start), end: new Date(start + 2 * DAY) };
      const windowTotal = async () =>
        (await sql<{ n: number }>`select coalesce(sum(plays), 0)::int as n from (${trackPlays(live, window)}) c`.execute(db)).rows[0]!.n;
      await play(db, live, tracks, 48, start);
      await foldAll(db);
      // An import of older plays, still queued: the window's read does not scan the queue.
      await play(db, live, tracks, 100, Date.UTC(2020, 0, 1));
      await agree(db);
      const skipped = await queueScans(db, live, window);
      assert.ok(skipped.length > 0);
      assert.ok(
        skipped.every((line) => line.includes('never executed')),
        skipped.join('\n'),
      );
      assert.equal(await windowTotal(), 48);
      // A play queued in the window widens the span: the queue is read and the play counts.
      await play(db, live, tracks, 1, start + DAY + 1_800_000);
      await agree(db);
      assert.ok((await queueScans(db, live, window)).some((line) => !line.includes('never executed')));
      assert.equal(await windowTotal(), 49);
      await foldAll(db);
      assert.equal(await windowTotal(), 49);
    });

    test('a read of the plays leaving skips the queue after an import, reads it after a deletion or an edit, and is exact either way', async () => {
      await foldAll(db);
      const window = { start: new Date(Date.UTC(2015, 0, 1)), end: new Date(Date.UTC(2016, 0, 1)) };
      const leaving = async () =>
        (await sql<{ n: number }>`select coalesce(sum(l.plays), 0)::int as n from (${leavingPlays(importer, window)}) l (track_id, plays)`.execute(db)).rows[0]!
          .n;
      await play(db, importer, tracks, 200, Date.UTC(2015, 0, 1));
      await agree(db);
      assert.equal(scanned(await queueScans(db, importer, window, leavingPlays(importer, window))), false);
      assert.equal(await leaving(), 0);
      await deletePlaysBefore(db, importer, Date.UTC(2015, 0, 2));
      await agree(db);
      assert.ok(scanned(await queueScans(db, importer, window, leavingPlays(importer, window))));
      assert.equal(await leaving(), -24);
      // Once folded, the flag goes with the count; an edit re-pointing plays sets it again.
      await foldAll(db);
      await play(db, importer, tracks, 10, Date.UTC(2015, 5, 1));
      assert.equal(scanned(await queueScans(db, importer, window, leavingPlays(importer, window))), false);
      await sql`update scrobbles set track_id = ${tracks[1]!} where user_id = ${importer} and listened_at >= ${new Date(Date.UTC(2015, 5, 1))} and listened_at < ${window.end}`.execute(
        db,
      );
      await agree(db);
      assert.ok(scanned(await queueScans(db, importer, window, leavingPlays(importer, window))));
      assert.equal(await leaving(), -9);
      await foldAll(db);
      assert.equal(await readTotal(db, importer), await rawTotal(db, importer));
    });

    test('a rolled-back write leaves no count; a deleted account takes its count along', async () => {
      await db
        .transaction()
        .execute(async (tx) => {
          await play(tx, quiet, tracks, 10, Date.UTC(2021, 0, 1));
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      await agree(db);
      const gone = await db.insertInto('users').values({ did: 'did:plc:gone', handle: 'gone' }).returning('id').executeTakeFirstOrThrow();
      await play(db, gone.id, tracks, 7, Date.UTC(2022, 0, 1));
      await db.deleteFrom('users').where('id', '=', gone.id).execute();
      await agree(db);
      await foldAll(db);
      assert.deepEqual(await counted(db), { marks: [], queue: [] });
    });

    test('a drained queue grown large is truncated; one with rows queued is not', async () => {
      const size = async () => Number((await sql<{ bytes: string }>`select pg_relation_size('stats_queue') as bytes`.execute(db)).rows[0]!.bytes);
      await play(db, importer, tracks, 30_000, Date.UTC(2019, 0, 1));
      await foldBatch(db);
      assert.equal(await reclaimQueue(db), false);
      const before = await readTotal(db, importer);
      assert.equal(before, await rawTotal(db, importer));
      await foldAll(db);
      assert.equal(await size(), 0);
      assert.equal(await readTotal(db, importer), before);
      await play(db, importer, tracks, 3, Date.UTC(2018, 0, 1));
      await agree(db);
      assert.equal(await readTotal(db, importer), before + 3);
    });

    test('writers and folds in several connections keep the count exact', { skip: backend.name !== 'postgres' && 'PGlite has one connection' }, async () => {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
      const others = await Promise.all([1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: process.env.TEST_DATABASE_URL!, schema: rows[0]!.schema })));
      try {
        const writers = others.flatMap((other, i) =>
          Array.from({ length: 6 }, (_, batch) =>
            play(other, [quiet, importer, live][(i + batch) % 3]!, tracks, 200, Date.UTC(2010 + i, batch, 1)).then(() => foldBatch(other)),
          ),
        );
        await Promise.all([...writers, foldAll(db), reclaimQueue(db)]);
        await agree(db);
        for (const user of [importer, live, quiet]) assert.equal(await readTotal(db, user), await rawTotal(db, user));
        await Promise.all([foldAll(db), ...others.map((other) => foldAll(other))]);
        assert.deepEqual(await counted(db), { marks: [], queue: [] });
        for (const user of [importer, live, quiet]) assert.equal(await readTotal(db, user), await rawTotal(db, user));
      } finally {
        await Promise.all(others.map((other) => other.destroy()));
      }
    });
  });
}
