/**
 * A user's top songs of all time, read from the totals in play order (ranked-totals.ts), against
 * counting their scrobbles: every page (ties broken by the id, as before) and the list's length,
 * through inserts, deletions, song merges and their undo, folded, partly folded or still queued,
 * and after a rebuild; and a profile's counts (playedCounts) likewise. Top artists and albums read
 * the same way: groups.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../../toolkit/db/index.ts';
import { testBackends } from '../../../toolkit/db/testing.ts';
import { seededPicker } from '../../../toolkit/fuzz-testing.ts';
import { playedCount, topSongs } from '../../catalog/actor-top.ts';
import { mergeEntries, undoCatalogEdit } from '../../catalog/edits/admin-edits.ts';
import { foldAll, foldBatch } from './fold.ts';
import { ALL_TIME } from './reads.ts';
import { rebuildRollups } from './rebuild.ts';
import { assertPlayedCounts, createUser, randomPlayRound, seedCatalog } from './rollups-testing.ts';

/** Pages small enough that ties and queued tracks fall across their edges, and one with everything. */
const PAGES = [
  { limit: 1, offset: 0 },
  { limit: 3, offset: 0 },
  { limit: 3, offset: 2 },
  { limit: 4, offset: 5 },
  { limit: 1000, offset: 0 },
];

async function assertAgree(db: Database, users: string[], context: string) {
  for (const user of users) {
    const { rows: raw } = await sql<{ id: string; plays: number }>`select track_id as id, count(*)::int as plays from scrobbles
      where user_id = ${user} group by 1 order by 2 desc, 1`.execute(db);
    for (const page of PAGES) {
      const songs = await topSongs(db, user, ALL_TIME, page, null);
      const read = songs.map((song) => ({ id: song.id, plays: song.playCount }));
      assert.deepEqual(read, raw.slice(page.offset, page.offset + page.limit), `${context}, ${user}, ${page.limit} from ${page.offset}`);
    }
    assert.equal(await playedCount(db, user, ALL_TIME, 'track'), raw.length, `${context}, ${user}: played tracks`);
    await assertPlayedCounts(db, user, `${context}, ${user}`);
  }
}

for (const backend of testBackends()) {
  describe(`all-time top songs [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    let admin: string;
    let users: string[];
    before(async () => {
      ({ db, close } = await backend.open());
      await seedCatalog(db);
      admin = await createUser(db, 'root', true);
      users = [admin, await createUser(db, 'ana'), await createUser(db, 'ben')];
    });
    after(() => close());

    test('every page equals counting the scrobbles through plays, deletions, song merges and undos, folded or queued', async () => {
      const random = seededPicker(29);
      const edits: number[] = [];
      for (let round = 0; round < 14; round++) {
        // Merged-away songs are gone from the catalog until undone: plays go to the songs there are.
        const current = (await db.selectFrom('tracks').select('id').orderBy('id').execute()).map((row) => row.id);
        await randomPlayRound(db, random, users, current, round);
        // A song merged into another (its plays re-pointed), or the latest merge undone.
        const action = random.pick(['merge', 'undo', 'none']);
        if (action === 'merge') {
          const [from, into] = [random.pick(current), random.pick(current)];
          if (from !== into) edits.push(await mergeEntries(db, admin, 'song', from, into));
        } else if (action === 'undo' && edits.length > 0) {
          await undoCatalogEdit(db, admin, edits.pop()!);
        }
        const folding = random.pick(['all', 'some', 'none']);
        if (folding === 'all') await foldAll(db);
        else if (folding === 'some') await foldBatch(db);
        await assertAgree(db, users, `round ${round}, ${action}, fold ${folding}`);
      }
      while (edits.length > 0) await undoCatalogEdit(db, admin, edits.pop()!);
      await assertAgree(db, users, 'undone, queued');
      await foldAll(db);
      await assertAgree(db, users, 'undone, folded');
      await rebuildRollups(db);
      await assertAgree(db, users, 'rebuilt');
    });
  });
}
