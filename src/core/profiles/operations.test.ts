import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { listenerWithHistory } from '../scrobbling/testing.ts';

const PROFILE = 'app.svc.actor.getProfile';
const FOLLOW = 'app.svc.actor.follow';
const UNFOLLOW = 'app.svc.actor.unfollow';

describeWithApp('profiles and follows', (app) => {
  test('a profile counts plays, distinct artists and songs, and follows; following is relative to the caller', async () => {
    const star = await listenerWithHistory(app(), 'star', [
      { at: '2024-01-01T10:00:00Z', artist: 'Björk', title: 'Army of Me' },
      { at: '2024-01-02T10:00:00Z', artist: 'Björk', title: 'Army of Me' },
      { at: '2024-01-03T10:00:00Z', artist: 'Björk', title: 'Hyperballad' },
      { at: '2024-01-04T10:00:00Z', artist: 'Portishead', title: 'Roads' },
    ]);
    const fan = await listenerWithHistory(app(), 'starfan');
    await app().ctx.db.updateTable('users').set({ display_name: 'The Star' }).where('id', '=', star.userId).execute();
    assert.equal((await app().procedure(FOLLOW, { did: star.did }, fan.token)).status, 200);

    const anonymous = await app().query(PROFILE, { did: 'star' });
    assert.equal(anonymous.status, 200);
    const { createdAt, ...rest } = anonymous.body;
    assert.match(createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.deepEqual(rest, {
      did: star.did,
      handle: 'star',
      displayName: 'The Star',
      scrobblesCount: 4,
      artistsCount: 2,
      songsCount: 3,
      followersCount: 1,
      followingCount: 0,
      following: false,
    });
    assert.equal((await app().query(PROFILE, { did: star.did }, fan.token)).body.following, true);
    const fanProfile = (await app().query(PROFILE, { did: 'starfan' }, star.token)).body;
    assert.deepEqual([fanProfile.scrobblesCount, fanProfile.followersCount, fanProfile.followingCount, fanProfile.following], [0, 0, 1, false]);
    assert.equal(fanProfile.displayName, undefined);
  });

  test('follow and unfollow are idempotent', async () => {
    const follower = await listenerWithHistory(app(), 'follower');
    const subject = await listenerWithHistory(app(), 'subject');
    const followers = async () => (await app().query(PROFILE, { did: subject.did })).body.followersCount;
    for (let i = 0; i < 2; i++) {
      const result = await app().procedure(FOLLOW, { did: 'subject' }, follower.token);
      assert.equal(result.status, 200);
      assert.deepEqual(result.body, {});
    }
    assert.equal(await followers(), 1);
    for (let i = 0; i < 2; i++) assert.equal((await app().procedure(UNFOLLOW, { did: subject.did }, follower.token)).status, 200);
    assert.equal(await followers(), 0);
  });

  test('follow errors: yourself 400, unknown 404, malformed 400, no auth 401', async () => {
    const me = await listenerWithHistory(app(), 'me-myself');
    const cases: [string, unknown, string | undefined, number, string][] = [
      [FOLLOW, { did: me.handle }, me.token, 400, 'InvalidRequest'],
      ...[FOLLOW, UNFOLLOW].flatMap((nsid): [string, unknown, string | undefined, number, string][] => [
        [nsid, { did: 'nobody-known' }, me.token, 404, 'NotFound'],
        [nsid, { did: 'not a handle!' }, me.token, 400, 'InvalidRequest'],
        [nsid, {}, me.token, 400, 'InvalidRequest'],
        [nsid, { did: me.handle }, undefined, 401, 'AuthMissing'],
      ]),
    ];
    for (const [nsid, input, token, status, error] of cases) {
      const result = await app().procedure(nsid, input, token);
      assert.equal(result.status, status, `${nsid} ${JSON.stringify(input)}`);
      assert.equal(result.body.error, error);
    }
    assert.equal((await app().procedure(FOLLOW, { did: 'not a handle!' }, me.token)).body.message, 'actor must be a DID or handle');
    assert.equal((await app().query(PROFILE, { did: 'nobody-known' })).status, 404);
    assert.equal((await app().query(PROFILE, { did: 'did:nope' })).body.message, 'actor must be a DID or handle');
  });
});
