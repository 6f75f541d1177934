import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { describeWithApp, type TestApp } from '../../../app/testing.ts';
import { listenerWithHistory, recordListens, type TestListen } from '../testing.ts';

const FEED = 'app.svc.feed.getFeed';
const ACTOR_SCROBBLES = 'app.svc.actor.getActorScrobbles';
const GET_SCROBBLE = 'app.svc.scrobble.getScrobble';

const minute = (n: number) => new Date(Date.UTC(2020, 0, 1, 0, n)).toISOString();
const play = (at: string, title: string, artist = 'Pager'): TestListen => ({ at, artist, title });

/** Every page of a feed, following cursors; fails on a page that is not 200. */
async function allPages(app: TestApp, nsid: string, params: Record<string, string | number>, token?: string, between?: (page: number) => Promise<void>) {
  const pages: { ids: string[]; cursor?: string }[] = [];
  let cursor: string | undefined;
  do {
    const result = await app.query(nsid, { ...params, ...(cursor ? { cursor } : {}) }, token);
    assert.equal(result.status, 200, JSON.stringify(result.body));
    cursor = result.body.cursor;
    pages.push({ ids: result.body.scrobbles.map((s: any) => s.id), cursor });
    await between?.(pages.length);
  } while (cursor);
  return pages;
}

describeWithApp('feeds and scrobble views', (app) => {
  test('the recent feed shows everyone, newest first, as the full Scrobble view in both lists', async () => {
    // Newer than any other test's plays, within the hour ahead that listen times may be.
    const hourAhead = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000);
    const aliceAt = hourAhead.toISOString().replace('.000Z', 'Z');
    const bobAt = new Date(hourAhead.getTime() + 60_000).toISOString();
    const alice = await listenerWithHistory(app(), 'alice', [
      {
        at: aliceAt,
        artist: 'Daft Punk',
        title: 'Get Lucky',
        album: 'Random Access Memories',
        durationMs: 369_000,
        tags: ['disco'],
        genre: 'Disco',
        isrc: 'USQX91300108',
      },
    ]);
    const bob = await listenerWithHistory(app(), 'bob', [play(bobAt, 'Harder', 'Daft Punk')]);
    await app().ctx.db.updateTable('users').set({ display_name: 'Alice A.', avatar: 'https://img.example/alice.png' }).where('id', '=', alice.userId).execute();
    const track = await app().ctx.db.selectFrom('tracks').selectAll().where('title', '=', 'Get Lucky').executeTakeFirstOrThrow();
    await app().ctx.db.insertInto('stars').values({ user_id: bob.userId, subject_kind: 'song', subject_id: track.id }).execute();

    const anonymous = (await app().query(FEED, { limit: 2 })).body;
    assert.deepEqual(
      anonymous.scrobbles.map((s: any) => [s.handle, s.title]),
      [
        ['bob', 'Harder'],
        ['alice', 'Get Lucky'],
      ],
    );
    assert.deepEqual(
      anonymous.feed,
      anonymous.scrobbles.map((scrobble: any) => ({ scrobble })),
    );
    const aliceScrobbleId = alice.scrobbleIds[0]!;
    const artistId = track.artist_id!;
    const albumId = track.album_id!;
    const expected = {
      id: aliceScrobbleId,
      uri: `earshot:scrobble:${aliceScrobbleId}`,
      trackId: track.id,
      trackUri: `earshot:song:${track.id}`,
      title: 'Get Lucky',
      artist: 'Daft Punk',
      album: 'Random Access Memories',
      artistUri: `earshot:artist:${artistId}`,
      albumUri: `earshot:album:${albumId}`,
      duration: 369_000,
      isrc: 'USQX91300108',
      tags: ['disco'],
      genre: 'Disco',
      dbVersion: 1,
      liked: false,
      likesCount: 1,
      updatedAt: track.updated_at.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      handle: 'alice',
      did: alice.did,
      avatar: 'https://img.example/alice.png',
      user: 'alice',
      userDisplayName: 'Alice A.',
      userAvatar: 'https://img.example/alice.png',
      createdAt: aliceAt,
      date: aliceAt,
    };
    assert.deepEqual(anonymous.scrobbles[1], expected);
    const asBob = (await app().query(FEED, { feed: 'earshot:feed:recent', limit: 2 }, bob.token)).body;
    assert.equal(asBob.scrobbles[1].liked, true, 'liked is relative to the caller');
    assert.deepEqual((await app().query(GET_SCROBBLE, { uri: expected.uri })).body, { scrobble: expected });
    assert.equal((await app().query(GET_SCROBBLE, { id: expected.id }, bob.token)).body.scrobble.liked, true);
  });

  test('getScrobble: 404 for an unknown scrobble, 400 for a bad or missing reference', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    assert.equal((await app().query(GET_SCROBBLE, { id: unknown })).status, 404);
    assert.equal((await app().query(GET_SCROBBLE, { uri: `earshot:scrobble:${unknown}` })).body.error, 'NotFound');
    const badReferences: Record<string, string>[] = [
      {},
      { id: 'nope' },
      { uri: `earshot:song:${unknown}` },
      { uri: 'x' },
      { uri: `earshot:scrobble:${unknown}`, id: '10000000-0000-4000-8000-000000000000' },
    ];
    for (const params of badReferences) {
      const result = await app().query(GET_SCROBBLE, params);
      assert.equal(result.status, 400, JSON.stringify(params));
      assert.equal(result.body.error, 'InvalidRequest');
    }
  });

  test('keyset paging has no duplicates or gaps, even with plays recorded between pages and equal timestamps', async () => {
    const pager = await listenerWithHistory(app(), 'pager', [
      ...Array.from({ length: 7 }, (_, i) => play(minute(10 * (i + 1)), `Song ${i}`)),
      play(minute(40), 'Same time A'),
      play(minute(40), 'Same time B'),
    ]);
    // Microseconds finer than a JS Date: a cursor that lost them would skip or repeat the plays at minute 40.
    await sql`update scrobbles set listened_at = listened_at + interval '1 microsecond' where id = ${pager.scrobbleIds[7]!}`.execute(app().ctx.db);
    const before = await allPages(app(), FEED, { feed: 'earshot:feed:user:pager', limit: 2 });
    const all = before.flatMap((page) => page.ids);
    assert.equal(all.length, 9);
    assert.equal(new Set(all).size, 9);
    assert.deepEqual(
      before.map((page) => page.ids.length),
      [2, 2, 2, 2, 1],
    );
    assert.equal(before.at(-1)!.cursor, undefined, 'no cursor on the last page');

    const inserted: string[] = [];
    const during = await allPages(app(), ACTOR_SCROBBLES, { did: pager.did, limit: 3 }, undefined, async (page) => {
      if (page === 1)
        inserted.push(...(await recordListens(app(), pager, [play(minute(1000), 'Newer than the cursor'), play(minute(1), 'Older than the cursor')])));
    });
    const seen = during.flatMap((page) => page.ids);
    assert.equal(new Set(seen).size, seen.length, 'no duplicates');
    assert.deepEqual(seen, [...all, inserted[1]], 'the newer play is above the cursor; the older one shows up in order');
  });

  test('cursor and limit are validated', async () => {
    const badPages: Record<string, string | number>[] = [
      { cursor: 'garbage' },
      { cursor: Buffer.from('2020-01-01|x').toString('base64url') },
      { limit: 0 },
      { limit: 101 },
      { limit: 'ten' },
    ];
    for (const params of badPages) {
      const result = await app().query(FEED, params);
      assert.equal(result.status, 400, JSON.stringify(params));
      assert.equal(result.body.error, 'InvalidRequest');
    }
    assert.equal((await app().query(ACTOR_SCROBBLES, { did: 'pager', cursor: '%%%' })).status, 400);
  });

  test('feed URIs: unknown feeds are 400, unknown users 404, malformed actors 400', async () => {
    const cases: [string, number, string][] = [
      ['earshot:feed:popular', 400, 'InvalidRequest'],
      ['earshot:feed:user:nobody-at-all', 404, 'NotFound'],
      ['earshot:feed:user:not valid!', 400, 'InvalidRequest'],
    ];
    for (const [feed, status, error] of cases) {
      const result = await app().query(FEED, { feed });
      assert.equal(result.status, status, feed);
      assert.equal(result.body.error, error);
    }
    assert.equal((await app().query(FEED, { feed: 'earshot:feed:user:not valid!' })).body.message, 'actor must be a DID or handle');
    assert.equal((await app().query(ACTOR_SCROBBLES, { did: 'ghost-user' })).status, 404);
    assert.equal((await app().query(ACTOR_SCROBBLES, { did: 'did:' })).body.message, 'actor must be a DID or handle');
  });

  test('the following feed needs auth and shows only followed users', async () => {
    const anonymous = await app().query(FEED, { feed: 'earshot:feed:following' });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error, 'AuthMissing');
    const fan = await listenerWithHistory(app(), 'fan', [play(minute(5000), 'My own')]);
    const idol = await listenerWithHistory(app(), 'idol', [play(minute(3000), 'Idol one'), play(minute(3001), 'Idol two')]);
    await listenerWithHistory(app(), 'stranger', [play(minute(4000), 'Stranger')]);
    assert.deepEqual((await app().query(FEED, { feed: 'earshot:feed:following' }, fan.token)).body, { feed: [], scrobbles: [] });
    assert.equal((await app().procedure('app.svc.actor.follow', { did: idol.handle }, fan.token)).status, 200);
    const following = (await app().query(FEED, { feed: 'earshot:feed:following', limit: 1 }, fan.token)).body;
    assert.deepEqual(
      following.scrobbles.map((s: any) => s.title),
      ['Idol two'],
    );
    const rest = (await app().query(FEED, { feed: 'earshot:feed:following', cursor: following.cursor }, fan.token)).body;
    assert.deepEqual(
      rest.scrobbles.map((s: any) => s.title),
      ['Idol one'],
    );
    assert.equal(rest.cursor, undefined);
  });
});
