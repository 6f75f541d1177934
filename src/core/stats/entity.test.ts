import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { listenerWithHistory, recordListens, type TestListen, type TestListener } from '../scrobbling/testing.ts';
import { foldAll } from './rollups/fold.ts';

const STATS = 'app.svc.stats.getEntityStats';
const MINUTE = 60_000;

/** The UTC month `back` months before the current one, as 'YYYY-MM', and an instant in it. */
function month(back: number, day = 10, minute = 0) {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, day, 12, minute));
  return { key: at.toISOString().slice(0, 7), at: at.toISOString() };
}

const play = (at: string, artist: string, title: string, album?: string): TestListen => ({ at, artist, title, ...(album && { album }) });
const aurora = (at: string, title: 'One' | 'Two') => play(at, 'Aurora Band', title, 'First Light');
const other = (at: string) => play(at, 'Other Act', 'Else');

interface Seeded {
  alice: TestListener;
  bob: TestListener;
  carol: TestListener;
  ids: { artist: string; album: string; one: string };
  times: { aliceFirst: string; aliceLast: string; last: string };
}

/**
 * Two months ago Aurora Band and Other Act tie at 2 plays; last month Other Act leads 3 to 1; this
 * month only Aurora Band is played. The older months are folded into the rollups, this month's
 * plays are still queued.
 */
async function seed(app: TestApp): Promise<Seeded> {
  const m2 = month(2);
  const m1 = month(1);
  const alice = await listenerWithHistory(app, 'alice', [aurora(m2.at, 'One'), aurora(month(2, 11).at, 'One'), aurora(m1.at, 'Two')]);
  const bob = await listenerWithHistory(app, 'bob', [other(m2.at), other(month(2, 12).at), other(m1.at), other(month(1, 11).at), other(month(1, 12).at)]);
  await foldAll(app.ctx.db);
  // Whole seconds: the API gives times without fractions.
  const now = Math.floor(Date.now() / 1000) * 1000;
  const carol = await listenerWithHistory(app, 'carol', [aurora(new Date(now - MINUTE).toISOString(), 'One')]);
  await recordListens(app, bob, [aurora(new Date(now - 2 * MINUTE).toISOString(), 'One')]);
  const db = app.ctx.db;
  const artist = await db.selectFrom('artists').select('id').where('name', '=', 'Aurora Band').executeTakeFirstOrThrow();
  const album = await db.selectFrom('albums').select('id').where('title', '=', 'First Light').executeTakeFirstOrThrow();
  const one = await db.selectFrom('tracks').select('id').where('title', '=', 'One').executeTakeFirstOrThrow();
  return {
    alice,
    bob,
    carol,
    ids: { artist: artist.id, album: album.id, one: one.id },
    times: { aliceFirst: m2.at, aliceLast: m1.at, last: new Date(now - MINUTE).toISOString() },
  };
}

const ok = (result: { status: number; body: any }) => {
  assert.equal(result.status, 200, JSON.stringify(result.body));
  return result.body;
};

/** The months as [month, plays, viewerPlays, rank], absent fields as undefined. */
const rows = (body: { months: { month: string; plays: number; viewerPlays?: number; rank?: number }[] }) =>
  body.months.map((m) => [m.month, m.plays, m.viewerPlays, m.rank]);

describeWithApp("An artist's, album's and song's statistics", (app) => {
  let seeded: Seeded;

  test('plays per month and rank among artists, ties sharing a rank; signed out there are no viewer figures', async () => {
    seeded = await seed(app());
    const body = ok(await app().query(STATS, { kind: 'artist', id: seeded.ids.artist, months: 3 }));
    assert.equal(body.kind, 'artist');
    assert.equal(body.id, seeded.ids.artist);
    assert.deepEqual(rows(body), [
      [month(2).key, 2, undefined, 1],
      [month(1).key, 1, undefined, 2],
      [month(0).key, 2, undefined, 1],
    ]);
    assert.equal(body.viewerFirstPlay, undefined);
    assert.equal(ok(await app().query(STATS, { kind: 'artist', id: seeded.ids.artist })).months.length, 24, 'the default window');
  });

  test("the signed-in viewer's own plays per month and own first and last play", async () => {
    const body = ok(await app().query(STATS, { kind: 'artist', uri: `earshot:artist:${seeded.ids.artist}`, months: 3 }, seeded.alice.token));
    assert.deepEqual(rows(body), [
      [month(2).key, 2, 2, 1],
      [month(1).key, 1, 1, 2],
      [month(0).key, 2, 0, 1],
    ]);
    assert.equal(body.viewerFirstPlay.playedAt, seeded.times.aliceFirst.replace('.000Z', 'Z'));
    assert.equal(body.viewerFirstPlay.songTitle, 'One');
    assert.equal(body.viewerFirstPlay.listener, undefined);
    assert.equal(body.viewerLastPlay.playedAt, seeded.times.aliceLast.replace('.000Z', 'Z'));
    assert.equal(body.viewerLastPlay.songTitle, 'Two');
  });

  test("everyone's first and last play say who; top listeners by plays, then handle", async () => {
    const body = ok(await app().query(STATS, { kind: 'artist', id: seeded.ids.artist, months: 1 }));
    assert.equal(body.firstPlay.listener.handle, 'alice');
    assert.equal(body.firstPlay.songUri, `earshot:song:${seeded.ids.one}`);
    assert.equal(Date.parse(body.lastPlay.playedAt), Date.parse(seeded.times.last));
    assert.equal(body.lastPlay.listener.handle, 'carol');
    assert.equal(body.lastPlay.listener.did, seeded.carol.did);
    assert.deepEqual(
      body.topListeners.map((l: { handle: string; plays: number }) => [l.handle, l.plays]),
      [
        ['alice', 3],
        ['bob', 1],
        ['carol', 1],
      ],
    );
  });

  test('albums and songs are ranked among their own kind', async () => {
    const album = ok(await app().query(STATS, { kind: 'album', id: seeded.ids.album, months: 3 }, seeded.bob.token));
    // Other Act's plays name no album: First Light is alone among albums.
    assert.deepEqual(rows(album), [
      [month(2).key, 2, 0, 1],
      [month(1).key, 1, 0, 1],
      [month(0).key, 2, 1, 1],
    ]);
    const song = ok(await app().query(STATS, { kind: 'song', id: seeded.ids.one, months: 3 }));
    assert.deepEqual(rows(song), [
      [month(2).key, 2, undefined, 1],
      [month(1).key, 0, undefined, undefined],
      [month(0).key, 2, undefined, 1],
    ]);
    assert.deepEqual(
      song.topListeners.map((l: { handle: string }) => l.handle),
      ['alice', 'bob', 'carol'],
    );
  });

  test('unknown ids are 404 NotFound; a bad kind, months or reference is 400 InvalidRequest', async () => {
    const missing = await app().query(STATS, { kind: 'artist', id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'NotFound');
    const bad: Record<string, string | number>[] = [
      { kind: 'label', id: seeded.ids.artist },
      { kind: 'artist', id: seeded.ids.artist, months: 0 },
      { kind: 'artist', id: seeded.ids.artist, months: 121 },
      { kind: 'artist', id: seeded.ids.artist, months: 'many' },
      { kind: 'artist', id: 'not-a-uuid' },
      { kind: 'artist' },
      { kind: 'artist', uri: `earshot:album:${seeded.ids.artist}` },
    ];
    for (const params of bad) {
      const result = await app().query(STATS, params);
      assert.equal(result.status, 400, JSON.stringify(params));
      assert.equal(result.body.error, 'InvalidRequest', JSON.stringify(params));
    }
  });

  test("a merged-away artist's id still answers, for the artist that absorbed it", async () => {
    await recordListens(app(), seeded.carol, [play(new Date(Date.now() - 3 * MINUTE).toISOString(), 'Aurora Bnd', 'Three')]);
    const typo = await app().ctx.db.selectFrom('artists').select('id').where('name', '=', 'Aurora Bnd').executeTakeFirstOrThrow();
    ok(await app().procedure('app.svc.artist.mergeArtists', { from: typo.id, into: seeded.ids.artist }, seeded.alice.token));
    const body = ok(await app().query(STATS, { kind: 'artist', id: typo.id, months: 1 }));
    assert.equal(body.id, seeded.ids.artist);
    assert.deepEqual(rows(body), [[month(0).key, 3, undefined, 1]]);
    assert.deepEqual(
      body.topListeners.map((l: { handle: string; plays: number }) => [l.handle, l.plays]),
      [
        ['alice', 3],
        ['carol', 2],
        ['bob', 1],
      ],
    );
  });
});
