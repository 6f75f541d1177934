import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';

const NSID = 'app.svc.scrobble.createScrobble';

describeWithApp('app.svc.scrobble.createScrobble', (app) => {
  test('stores a play and answers with its ids; a resubmission is a duplicate', async () => {
    const { token } = await app().signup('creator');
    const input = { title: 'Hey Jude', artist: 'The Beatles', album: '1', duration: 431000, timestamp: '2024-05-01T12:00:00Z' };
    const first = await app().procedure(NSID, input, token);
    assert.equal(first.status, 200);
    assert.equal(first.body.status, 'stored');
    assert.equal(first.body.uri, `earshot:scrobble:${first.body.id}`);
    assert.equal(first.body.trackUri, `earshot:song:${first.body.trackId}`);
    assert.equal(first.body.createdAt, '2024-05-01T12:00:00Z');
    const again = await app().procedure(NSID, input, token);
    assert.equal(again.body.status, 'duplicate');
    assert.equal(again.body.id, first.body.id);
  });

  test("playedMs is kept as the play's listening time and shown on it; absent, the play has none", async () => {
    const { token } = await app().signup('timed');
    const timed = await app().procedure(
      NSID,
      { title: 'Let It Be', artist: 'The Beatles', duration: 243_000, playedMs: 121_500, timestamp: '2024-05-02T12:00:00Z' },
      token,
    );
    assert.equal(timed.body.status, 'stored');
    const plain = await app().procedure(NSID, { title: 'Let It Be', artist: 'The Beatles', timestamp: '2024-05-03T12:00:00Z' }, token);
    const shown = async (id: string) => (await app().query('app.svc.scrobble.getScrobble', { id }, token)).body.scrobble;
    assert.equal((await shown(timed.body.id)).playedMs, 121_500);
    assert.equal('playedMs' in (await shown(plain.body.id)), false);
    const refused = await app().procedure(NSID, { title: 'x', artist: 'y', playedMs: -5 }, token);
    assert.equal(refused.status, 400);
  });

  test('bad input is 400 InvalidRequest and stores nothing', async () => {
    const { token } = await app().signup('sloppy');
    for (const input of [
      { artist: 'x' },
      { title: 'x' },
      { title: ' ', artist: 'x' },
      { title: 'x', artist: 'y', duration: -1 },
      { title: 'x', artist: 'y', timestamp: 'yesterday' },
      { title: 'x', artist: 'y', mbid: 'not-a-uuid' },
      { title: 'x', artist: 'y', tags: 'rock' },
    ]) {
      const result = await app().procedure(NSID, input, token);
      assert.equal(result.status, 400, JSON.stringify(input));
      assert.equal(result.body.error, 'InvalidRequest');
    }
    const rows = await app()
      .ctx.db.selectFrom('scrobbles')
      .innerJoin('users', 'users.id', 'scrobbles.user_id')
      .select('scrobbles.id')
      .where('users.handle', '=', 'sloppy')
      .execute();
    assert.deepEqual(rows, []);
  });

  test('needs auth', async () => {
    const result = await app().procedure(NSID, { title: 'x', artist: 'y' });
    assert.equal(result.status, 401);
    assert.equal(result.body.error, 'AuthMissing');
  });
});
