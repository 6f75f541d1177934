import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { describeWithApp, startTestApp, testBackends, type TestApp, type TestBackend } from '../../app/testing.ts';
import { openDatabase } from '../../toolkit/db/index.ts';
import { lbAs, lbUser } from '../listenbrainz/listenbrainz-testing.ts';
import { ResponseCache } from './response-cache.ts';
import { rawQuery, readUntilKept } from './response-cache-testing.ts';

const FEED = 'app.svc.feed.getFeed';
const SONGS = 'app.svc.song.getSongs';

describe('the response cache', () => {
  const body = (bytes: number) => Buffer.alloc(bytes, 'x');

  test('keeps within its byte bound, dropping the least recently used first', () => {
    const cache = new ResponseCache(10_000);
    for (const key of ['a', 'b', 'c']) cache.set(key, 's1', body(3_000));
    assert.ok(cache.get('a', 's1'), 'a is kept, and now the most recently used');
    cache.set('d', 's1', body(3_000));
    assert.ok(cache.bytes <= 10_000, `${cache.bytes} bytes`);
    assert.equal(cache.get('b', 's1'), undefined, 'b, the least recently used, went first');
    assert.ok(cache.get('a', 's1') && cache.get('c', 's1') && cache.get('d', 's1'));
    cache.set('huge', 's1', body(20_000));
    assert.equal(cache.get('huge', 's1'), undefined, 'an answer larger than the bound is not kept');
    assert.ok(cache.bytes <= 10_000);
  });

  test('answers a body only for the snapshot it was computed in', () => {
    const cache = new ResponseCache(10_000);
    cache.set('a', '10:12:11', body(100));
    assert.equal(cache.get('a', '10:13:'), undefined);
    assert.equal(cache.get('a', '10:12:11'), undefined, 'a later snapshot never comes back: the stale entry is gone');
    assert.equal(cache.bytes, 0);
  });

  test('a computation under way is shared by key and snapshot, and kept only if it says so', async () => {
    const cache = new ResponseCache(10_000);
    let finish!: (value: { body: Buffer; keep: boolean }) => void;
    const running = cache.compute('a', 's1', () => new Promise((resolve) => (finish = resolve)));
    assert.equal(cache.computing('a', 's1'), running);
    assert.equal(cache.computing('a', 's2'), undefined, 'another snapshot computes its own');
    assert.equal(cache.computing('b', 's1'), undefined);
    finish({ body: body(10), keep: true });
    assert.equal((await running).length, 10);
    assert.equal(cache.computing('a', 's1'), undefined);
    assert.equal(cache.get('a', 's1')?.length, 10);

    const unkept = cache.compute('c', 's1', async () => ({ body: body(10), keep: false }));
    assert.equal((await unkept).length, 10);
    assert.equal(cache.get('c', 's1'), undefined, 'a computation that saw a commit is answered, not kept');
  });
});

const single = (artist: string, title: string, at: number) => ({
  listen_type: 'single',
  payload: [{ listened_at: at, track_metadata: { artist_name: artist, track_name: title } }],
});

describeWithApp('cached reads', (app) => {
  test('a kept page is sent again unchanged, and every kind of write shows at once', async () => {
    const admin = await lbUser(app(), 'cacheadmin');
    const params = { feed: 'earshot:feed:recent', limit: '5' };
    const feed = async () => JSON.parse(await readUntilKept(app(), FEED, params));

    assert.equal((await lbAs(app(), admin, 'POST', '/submit-listens', single('Kept', 'First', 1_700_000_000))).status, 200);
    assert.deepEqual(
      (await feed()).scrobbles.map((s: any) => s.title),
      ['First'],
    );

    // A ListenBrainz submit.
    assert.equal((await lbAs(app(), admin, 'POST', '/submit-listens', single('Kept', 'Second', 1_700_000_060))).status, 200);
    const afterSubmit = await feed();
    assert.deepEqual(
      afterSubmit.scrobbles.map((s: any) => s.title),
      ['Second', 'First'],
    );

    // An XRPC scrobble.
    assert.equal(
      (await app().procedure('app.svc.scrobble.createScrobble', { artist: 'Kept', title: 'Third', timestamp: '2023-11-14T22:15:00Z' }, admin.token)).status,
      200,
    );
    const afterCreate = await feed();
    assert.deepEqual(
      afterCreate.scrobbles.map((s: any) => s.title),
      ['Third', 'Second', 'First'],
    );

    // A catalog edit.
    const second = afterCreate.scrobbles[1];
    const songs = { filter: 'title==Second' };
    assert.equal(JSON.parse(await readUntilKept(app(), SONGS, songs)).tracks.length, 1);
    assert.equal((await app().procedure('app.svc.song.updateSong', { id: second.trackId, title: 'Second, fixed' }, admin.token)).status, 200);
    assert.deepEqual(JSON.parse(await readUntilKept(app(), SONGS, songs)).tracks, []);
    assert.deepEqual(
      (await feed()).scrobbles.map((s: any) => s.title),
      ['Third', 'Second, fixed', 'First'],
    );

    // A delete.
    assert.equal((await app().procedure('app.svc.scrobble.deleteScrobble', { id: second.id }, admin.token)).status, 200);
    assert.deepEqual(
      (await feed()).scrobbles.map((s: any) => s.title),
      ['Third', 'First'],
    );
  });

  test("a signed-in caller's answer is theirs: a like shows to its liker only, at once", async () => {
    const liker = await lbUser(app(), 'cacheliker');
    const other = await app().signup('cacheother');
    assert.equal((await lbAs(app(), liker, 'POST', '/submit-listens', single('Liked', 'Loved song', 1_700_001_000))).status, 200);
    const params = { filter: 'title=="Loved song"' };
    const liked = async (token?: string) =>
      JSON.parse(await readUntilKept(app(), SONGS, params, token)).tracks.map((t: any) => [t.title, t.liked, t.likesCount]);

    assert.deepEqual(await liked(liker.token), [['Loved song', false, 0]]);
    assert.deepEqual(await liked(other.token), [['Loved song', false, 0]]);
    const [song] = JSON.parse(await rawQuery(app(), SONGS, params)).tracks;
    assert.equal((await app().procedure('app.svc.song.likeSong', { id: song.id }, liker.token)).status, 200);

    for (let round = 0; round < 2; round++) {
      assert.deepEqual(await liked(liker.token), [['Loved song', true, 1]]);
      assert.deepEqual(await liked(other.token), [['Loved song', false, 1]]);
      assert.deepEqual(await liked(), [['Loved song', false, 1]]);
    }
  });
});

/** A second app on the database of the first (PostgreSQL): as a second server process, its own pool and its own kept answers. */
function sameDatabaseAs(first: TestApp, url: string): TestBackend {
  return {
    name: 'postgres',
    async open() {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(first.ctx.db);
      const db = await openDatabase({ kind: 'postgres', url, schema: rows[0]!.schema });
      return { db, close: () => db.destroy() };
    },
  };
}

const postgres = testBackends().find((backend) => backend.name === 'postgres');

describe('two apps on one PostgreSQL database', { skip: !postgres && 'needs TEST_DATABASE_URL' }, () => {
  let one: TestApp;
  let two: TestApp;
  before(async () => {
    one = await startTestApp(postgres!);
    two = await startTestApp(sameDatabaseAs(one, process.env.TEST_DATABASE_URL!));
  });
  after(async () => {
    await two?.close();
    await one?.close();
  });

  test("each sees the other's writes on its next read", async () => {
    const user = await lbUser(one, 'twoapps');
    const params = { feed: 'earshot:feed:user:twoapps', limit: '5' };
    const titles = async (app: TestApp) => JSON.parse(await readUntilKept(app, FEED, params)).scrobbles.map((s: any) => s.title);

    assert.deepEqual(await titles(one), []);
    assert.deepEqual(await titles(two), []);
    assert.equal((await lbAs(two, user, 'POST', '/submit-listens', single('Both', 'Through two', 1_700_002_000))).status, 200);
    assert.deepEqual(await titles(one), ['Through two']);
    assert.equal((await lbAs(one, user, 'POST', '/submit-listens', single('Both', 'Through one', 1_700_002_060))).status, 200);
    assert.deepEqual(await titles(two), ['Through one', 'Through two']);
    assert.deepEqual(await titles(one), ['Through one', 'Through two']);
  });
});
