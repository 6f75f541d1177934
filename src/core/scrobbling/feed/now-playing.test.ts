import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { describeWithApp, jsonRequest } from '../../../app/testing.ts';
import { createClientAccount, type ClientAccount } from '../../../adapters/lastfm/lastfm-testing.ts';

const NOW_PLAYING = 'app.svc.feed.getNowPlaying';
const FOLLOWING = 'earshot:feed:following';

describeWithApp('who is listening now', (app) => {
  let alice: ClientAccount;
  let bob: ClientAccount;
  let carol: ClientAccount;
  const playingNow = async (client: ClientAccount, title: string, extra: Record<string, unknown> = {}) => {
    const body = { listen_type: 'playing_now', payload: [{ track_metadata: { artist_name: 'Live Band', track_name: title, ...extra } }] };
    const sent = await jsonRequest(`${app().scrobblerUrl}/1/submit-listens`, 'POST', { body, headers: { authorization: `Token ${client.key}` } });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
  };
  const listening = async (params: Record<string, string | number> = {}, token?: string) => {
    const answer = await app().query(NOW_PLAYING, params, token);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.nowPlaying as { handle: string; title: string }[];
  };
  const expire = (client: ClientAccount) =>
    app().ctx.db.updateTable('now_playing').set({ expires_at: sql<Date>`now() - interval '1 second'` }).where('user_id', '=', client.userId).execute();

  before(async () => {
    alice = await createClientAccount(app(), 'np-alice');
    bob = await createClientAccount(app(), 'np-bob');
    carol = await createClientAccount(app(), 'np-carol');
  });

  test('nobody reported a track: an empty list', async () => {
    assert.deepEqual(await listening(), []);
  });

  test('a ListenBrainz playing_now report shows up with the listener and track, newest first', async () => {
    await app().ctx.db.updateTable('users').set({ display_name: 'Alice N.', avatar: 'https://img.example/a.png' }).where('id', '=', alice.userId).execute();
    await playingNow(alice, 'First Song', { release_name: 'Live Album' });
    await playingNow(bob, 'Second Song');
    // started_at is now() of each report; make the order explicit rather than trusting the clock's resolution.
    await app().ctx.db.updateTable('now_playing').set({ started_at: sql<Date>`now() - interval '1 minute'` }).where('user_id', '=', alice.userId).execute();
    const [first, second, ...rest] = (await app().query(NOW_PLAYING, {})).body.nowPlaying;
    assert.deepEqual(rest, []);
    assert.equal(first.handle, 'np-bob');
    assert.equal(first.title, 'Second Song');
    const track = await app().ctx.db.selectFrom('tracks').select('id').where('title', '=', 'First Song').executeTakeFirstOrThrow();
    const { did } = await app().ctx.db.selectFrom('users').select('did').where('id', '=', alice.userId).executeTakeFirstOrThrow();
    const { since, ...fields } = second;
    assert.match(since, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.deepEqual(fields, {
      handle: 'np-alice',
      did,
      displayName: 'Alice N.',
      avatar: 'https://img.example/a.png',
      title: 'First Song',
      artist: 'Live Band',
      album: 'Live Album',
      trackId: track.id,
    });
    assert.deepEqual(
      (await listening({ limit: 1 })).map((entry) => entry.handle),
      ['np-bob'],
    );
  });

  test('an expired report is left out; a new report brings the listener back', async () => {
    await expire(bob);
    assert.deepEqual(
      (await listening()).map((entry) => entry.handle),
      ['np-alice'],
    );
    await playingNow(bob, 'Third Song');
    assert.deepEqual(
      (await listening()).map((entry) => [entry.handle, entry.title]),
      [
        ['np-bob', 'Third Song'],
        ['np-alice', 'First Song'],
      ],
    );
  });

  test('the following feed needs auth, like getFeed, and shows only followed listeners', async () => {
    const anonymous = await app().query(NOW_PLAYING, { feed: FOLLOWING });
    const feedAnswer = await app().query('app.svc.feed.getFeed', { feed: FOLLOWING });
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.body, feedAnswer.body);
    assert.deepEqual(await listening({ feed: FOLLOWING }, carol.token), []);
    assert.equal((await app().procedure('app.svc.actor.follow', { did: 'np-alice' }, carol.token)).status, 200);
    await playingNow(carol, 'Own Song');
    assert.deepEqual(
      (await listening({ feed: FOLLOWING }, carol.token)).map((entry) => entry.handle),
      ['np-alice'],
    );
  });

  test('limits outside 1..50 and unknown feeds are refused', async () => {
    assert.equal((await app().query(NOW_PLAYING, { limit: 0 })).status, 400);
    assert.equal((await app().query(NOW_PLAYING, { limit: 51 })).status, 400);
    assert.equal((await app().query(NOW_PLAYING, { feed: 'earshot:feed:nope' })).body.error, 'InvalidRequest');
  });
});
