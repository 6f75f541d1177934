import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoDateTime } from '../../toolkit/schemas.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { listenerWithHistory, type TestListener } from './testing.ts';

const DELETE = 'app.svc.scrobble.deleteScrobble';
const UPDATE = 'app.svc.scrobble.updateScrobble';
const GET = 'app.svc.scrobble.getScrobble';

const at = (day: number) => new Date(Date.UTC(2024, 2, day, 20)).toISOString();

async function storedPlays(app: TestApp, listener: TestListener) {
  return app.ctx.db
    .selectFrom('scrobbles as s')
    .innerJoin('tracks as t', 't.id', 's.track_id')
    .select(['s.id', 't.artist', 't.title', 's.listened_at', 's.submitted', 's.edited_at'])
    .where('s.user_id', '=', listener.userId)
    .orderBy('s.listened_at')
    .execute();
}

/** What a deletion must change at once: the profile count, the user's feed, Wrapped and the chart. */
async function readModels(app: TestApp, listener: TestListener) {
  const [profile, feed, wrapped, chart] = await Promise.all([
    app.query('app.svc.actor.getProfile', { did: listener.did }),
    app.query('app.svc.feed.getFeed', { feed: `earshot:feed:user:${listener.handle}` }),
    app.query('app.svc.stats.getWrapped', { did: listener.did, year: 2024, tz: 'UTC' }),
    app.query('app.svc.charts.getScrobblesChart', { did: listener.did, tz: 'UTC' }),
  ]);
  return {
    count: profile.body.scrobblesCount,
    feed: feed.body.scrobbles.map((s: any) => s.title),
    wrapped: wrapped.body.totalScrobbles,
    chart: chart.body.chart,
  };
}

describeWithApp('deleting and correcting plays (XRPC)', (app) => {
  test('deleteScrobble removes an own play by id or uri, and every read reflects it at once', async () => {
    const ann = await listenerWithHistory(app(), 'del-ann', [
      { at: at(1), artist: 'Low', title: 'Words' },
      { at: at(2), artist: 'Low', title: 'Lazy' },
      { at: at(3), artist: 'Low', title: 'Sunflower' },
    ]);
    const before = await readModels(app(), ann);
    assert.deepEqual(before, {
      count: 3,
      feed: ['Sunflower', 'Lazy', 'Words'],
      wrapped: 3,
      chart: [
        { date: '2024-03-01', count: 1 },
        { date: '2024-03-02', count: 1 },
        { date: '2024-03-03', count: 1 },
      ],
    });

    const byId = await app().procedure(DELETE, { id: ann.scrobbleIds[1] }, ann.token);
    assert.equal(byId.status, 200, JSON.stringify(byId.body));
    assert.deepEqual(byId.body, { success: true });
    const byUri = await app().procedure(DELETE, { uri: `earshot:scrobble:${ann.scrobbleIds[2]}` }, ann.token);
    assert.deepEqual(byUri.body, { success: true });

    assert.deepEqual(await readModels(app(), ann), { count: 1, feed: ['Words'], wrapped: 1, chart: [{ date: '2024-03-01', count: 1 }] });
    const again = await app().procedure(DELETE, { id: ann.scrobbleIds[1] }, ann.token);
    assert.equal(again.status, 404);
    assert.equal(again.body.error, 'NotFound');
    assert.equal((await app().query(GET, { id: ann.scrobbleIds[1]! })).status, 404);
  });

  test("another user's play, or an unknown one, is 404 and stays; bad input is 400; no credentials 401", async () => {
    const owner = await listenerWithHistory(app(), 'del-owner', [{ at: at(5), artist: 'Low', title: 'Words' }]);
    const other = await listenerWithHistory(app(), 'del-other');
    const id = owner.scrobbleIds[0]!;

    for (const input of [{ id }, { uri: `earshot:scrobble:${id}` }]) {
      const result = await app().procedure(DELETE, input, other.token);
      assert.equal(result.status, 404, JSON.stringify(result.body));
      assert.equal(result.body.error, 'NotFound');
    }
    const update = await app().procedure(UPDATE, { id, title: 'Mine now' }, other.token);
    assert.equal(update.status, 404);
    assert.equal((await app().procedure(DELETE, { id: '00000000-0000-4000-8000-000000000000' }, owner.token)).status, 404);
    assert.deepEqual(
      (await storedPlays(app(), owner)).map((play) => play.title),
      ['Words'],
    );

    for (const input of [{}, { id: 'not-a-uuid' }, { uri: 'earshot:song:x' }, { uri: `earshot:scrobble:${id}`, id: '00000000-0000-4000-8000-000000000000' }]) {
      const result = await app().procedure(DELETE, input, owner.token);
      assert.equal(result.status, 400, JSON.stringify(input));
      assert.equal(result.body.error, 'InvalidRequest');
    }
    assert.equal((await app().procedure(DELETE, { id })).status, 401);
    assert.equal((await storedPlays(app(), owner)).length, 1);
  });

  test('updateScrobble moves a play in time and answers the getScrobble view, original record kept', async () => {
    const bea = await listenerWithHistory(app(), 'upd-bea', [{ at: at(6), artist: 'Slowdive', title: 'Alison', submitted: { from: 'player' } }]);
    const id = bea.scrobbleIds[0]!;
    const moved = new Date(Date.UTC(2024, 2, 7, 8, 30, 15, 250)).toISOString();
    const result = await app().procedure(UPDATE, { uri: `earshot:scrobble:${id}`, listenedAt: moved }, bea.token);
    assert.equal(result.status, 200, JSON.stringify(result.body));
    const view = (await app().query(GET, { id }, bea.token)).body.scrobble;
    assert.deepEqual(result.body.scrobble, view);
    assert.equal(view.createdAt, isoDateTime(new Date(moved)));
    assert.equal(typeof view.editedAt, 'string');

    const [play] = await storedPlays(app(), bea);
    assert.equal(play!.listened_at.toISOString(), moved);
    assert.deepEqual(play!.submitted, { from: 'player' });
    assert.ok(play!.edited_at instanceof Date);
  });

  test("updateScrobble's playedMs: a player says how long the play lasted; only on one's own play, and not an edit", async () => {
    const fay = await listenerWithHistory(app(), 'upd-fay', [{ at: at(6), artist: 'Slowdive', title: 'Alison' }]);
    const mallory = await listenerWithHistory(app(), 'upd-mallory');
    const id = fay.scrobbleIds[0]!;
    const result = await app().procedure(UPDATE, { id, playedMs: 183_250 }, fay.token);
    assert.equal(result.status, 200, JSON.stringify(result.body));
    assert.deepEqual([result.body.scrobble.playedMs, result.body.scrobble.editedAt], [183_250, undefined]);
    assert.equal((await app().procedure(UPDATE, { id, playedMs: 1 }, mallory.token)).status, 404);
    assert.equal((await app().procedure(UPDATE, { id, playedMs: -1 }, fay.token)).status, 400);
    const [play] = await storedPlays(app(), fay);
    assert.deepEqual([play!.listened_at.toISOString(), play!.edited_at], [at(6), null]);
    assert.equal((await app().query(GET, { id }, fay.token)).body.scrobble.playedMs, 183_250);
  });

  test('updateScrobble refuses bad input with 400 and changes nothing', async () => {
    const cal = await listenerWithHistory(app(), 'upd-cal', [{ at: at(8), artist: 'Slowdive', title: 'Alison' }]);
    const id = cal.scrobbleIds[0]!;
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString();
    for (const input of [
      { id },
      { id, listenedAt: 'yesterday' },
      { id, listenedAt: future },
      { id, listenedAt: '1969-12-31T23:59:59Z' },
      { id, title: '   ' },
      { id, trackId: 'nope' },
      { id, trackId: '00000000-0000-4000-8000-000000000000', title: 'Both' },
    ]) {
      const result = await app().procedure(UPDATE, input, cal.token);
      assert.equal(result.status, 400, `${JSON.stringify(input)} → ${JSON.stringify(result.body)}`);
      assert.equal(result.body.error, 'InvalidRequest');
    }
    const unknownSong = await app().procedure(UPDATE, { id, trackId: '00000000-0000-4000-8000-000000000000' }, cal.token);
    assert.equal(unknownSong.status, 404);
    const [play] = await storedPlays(app(), cal);
    assert.deepEqual([play!.title, play!.listened_at.toISOString(), play!.edited_at], ['Alison', at(8), null]);
  });

  test('a correction that would duplicate a play is 409 DuplicateScrobble, and nothing changes', async () => {
    const dee = await listenerWithHistory(app(), 'upd-dee', [
      { at: at(9), artist: 'Mazzy Star', title: 'Fade Into You' },
      { at: at(10), artist: 'Mazzy Star', title: 'Fade Into You' },
      { at: at(10), artist: 'Mazzy Star', title: 'Halah' },
    ]);
    const [first, , halah] = dee.scrobbleIds;
    const sameTime = await app().procedure(UPDATE, { id: first, listenedAt: at(10) }, dee.token);
    assert.equal(sameTime.status, 409, JSON.stringify(sameTime.body));
    assert.equal(sameTime.body.error, 'DuplicateScrobble');
    const song = (await app().query(GET, { id: first! })).body.scrobble.trackId;
    const sameSong = await app().procedure(UPDATE, { id: halah, trackId: song }, dee.token);
    assert.equal(sameSong.status, 409);
    const byName = await app().procedure(UPDATE, { id: halah, title: 'fade into you' }, dee.token);
    assert.equal(byName.status, 409);
    const plays = await storedPlays(app(), dee);
    assert.deepEqual(
      plays.map((play) => [play.title, play.listened_at.toISOString(), play.edited_at]),
      [
        ['Fade Into You', at(9), null],
        ['Fade Into You', at(10), null],
        ['Halah', at(10), null],
      ],
    );
  });

  test('re-pointing by id, or by corrected names through the matcher (found or created)', async () => {
    const eve = await listenerWithHistory(app(), 'upd-eve', [
      { at: at(11), artist: 'Radiohed', title: 'Creep', album: 'Pablo Honey' },
      { at: at(12), artist: 'Radiohead', title: 'Creep (feat. Nobody)', album: 'Pablo Honey' },
      { at: at(13), artist: 'Radiohead', title: 'Karma Police' },
    ]);
    const [misspelt, featured, karma] = eve.scrobbleIds;
    const right = (await app().query(GET, { id: featured! })).body.scrobble;

    // The corrected artist matches the existing song as ingest would (title keys ignore the guest credit).
    const fixed = await app().procedure(UPDATE, { id: misspelt, artist: 'RADIOHEAD' }, eve.token);
    assert.equal(fixed.status, 200, JSON.stringify(fixed.body));
    assert.equal(fixed.body.scrobble.trackId, right.trackId);
    assert.equal(fixed.body.scrobble.createdAt, isoDateTime(new Date(at(11))));

    // A title the catalog lacks becomes a new song, under the artist the catalog knows.
    const created = await app().procedure(UPDATE, { id: karma, title: 'Airbag', album: 'OK Computer' }, eve.token);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual([created.body.scrobble.artist, created.body.scrobble.title, created.body.scrobble.album], ['Radiohead', 'Airbag', 'OK Computer']);
    assert.notEqual(created.body.scrobble.trackId, right.trackId);

    const byId = await app().procedure(UPDATE, { id: karma, trackId: right.trackId, listenedAt: at(14) }, eve.token);
    assert.equal(byId.status, 200, JSON.stringify(byId.body));
    assert.deepEqual([byId.body.scrobble.trackId, byId.body.scrobble.createdAt], [right.trackId, isoDateTime(new Date(at(14)))]);
    assert.deepEqual(
      (await storedPlays(app(), eve)).map((play) => play.title),
      ['Creep (feat. Nobody)', 'Creep (feat. Nobody)', 'Creep (feat. Nobody)'],
    );
  });
});
