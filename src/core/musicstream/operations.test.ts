import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startFakeMusicstream, type FakeMusicstream } from '../providers/musicstream/fake.ts';
import { connectWithFake, useProvider } from '../providers/testing.ts';
import { listenerWithHistory, type TestListener } from '../scrobbling/testing.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';

const M = (name: string) => `app.svc.musicstream.${name}`;
const COMMANDS = ['pause', 'play', 'next', 'previous'] as const;

describeWithApp('musicstream operations', (app) => {
  let fake: FakeMusicstream;
  before(async () => {
    fake = await startFakeMusicstream({ account: 'listener' });
    useProvider(app(), 'musicstream', fake.config);
  });
  after(() => fake.close());

  let handles = 0;
  async function connected(a: TestApp): Promise<TestListener> {
    const listener = await listenerWithHistory(a, `ms-user-${++handles}`);
    await connectWithFake(a, listener.userId, 'musicstream', fake.oauth);
    return listener;
  }

  test('pause, play, next and previous reach the device and change what it plays', async () => {
    const { token } = await connected(app());
    fake.setDevice('Kitchen');
    fake.setPlaying({ title: 'Desfado', artist: 'Ana Moura', album: 'Desfado' });
    fake.setPlaying({ title: 'Primavera', artist: 'Mariza', album: 'Transparente' });

    // No body at all, as the spec declares them.
    const paused = await app().request('POST', `/xrpc/${M('pause')}`, { token });
    assert.deepEqual([paused.status, paused.body], [200, { success: true }]);
    assert.equal(fake.isPlaying, false);
    assert.deepEqual((await app().procedure(M('play'), undefined, token)).body, { success: true });
    assert.equal(fake.isPlaying, true);
    const title = async () => (await app().query(M('getCurrentlyPlaying'), {}, token)).body.track.title;
    assert.equal((await app().procedure(M('next'), undefined, token)).status, 200);
    assert.equal(await title(), 'Desfado');
    assert.equal((await app().procedure(M('previous'), undefined, token)).status, 200);
    assert.equal(await title(), 'Primavera');
    assert.deepEqual(
      fake.server.requests.filter((request) => /^(PUT|POST) \/me\/player\//.test(request)),
      ['PUT /me/player/pause', 'PUT /me/player/play', 'POST /me/player/next', 'POST /me/player/previous'],
    );
  });

  test('getCurrentlyPlaying: the track, device and progress; nothing playing is no track', async () => {
    const { token } = await connected(app());
    fake.setDevice('Kitchen');
    fake.setPlaying({ title: 'Leva-me aos Fados', artist: 'Ana Moura', album: 'Desfado', durationMs: 180_000 }, false);
    const playing = await app().query(M('getCurrentlyPlaying'), {}, token);
    assert.equal(playing.status, 200);
    assert.deepEqual(
      { ...playing.body, track: { ...playing.body.track, url: typeof playing.body.track.url, artUrl: typeof playing.body.track.artUrl } },
      {
        isPlaying: false,
        progressMs: 0,
        device: null,
        track: { title: 'Leva-me aos Fados', artists: ['Ana Moura'], album: 'Desfado', durationMs: 180_000, isrc: null, url: 'string', artUrl: 'string' },
      },
    );
    fake.setPlaying(null);
    const nothing = await app().query(M('getCurrentlyPlaying'), {}, token);
    assert.deepEqual([nothing.status, nothing.body], [200, { isPlaying: false, progressMs: null, track: null, device: null }]);
  });

  test('not configured is 400 ProviderNotConfigured before anything else; not connected 404 NotConnected', async () => {
    const { token } = await connected(app());
    const stranger = await listenerWithHistory(app(), 'ms-stranger');
    useProvider(app(), 'musicstream', undefined);
    try {
      for (const who of [token, stranger.token]) {
        const result = await app().procedure(M('pause'), undefined, who);
        assert.deepEqual([result.status, result.body.error], [400, 'ProviderNotConfigured']);
        assert.match(result.body.message, /MUSICSTREAM_CLIENT_ID/);
      }
      assert.equal((await app().query(M('getCurrentlyPlaying'), {}, token)).body.error, 'ProviderNotConfigured');
    } finally {
      useProvider(app(), 'musicstream', fake.config);
    }
    for (const call of [app().procedure(M('next'), undefined, stranger.token), app().query(M('getCurrentlyPlaying'), {}, stranger.token)]) {
      const result = await call;
      assert.deepEqual([result.status, result.body.error], [404, 'NotConnected']);
    }
  });

  test('no active device is 409 NoActiveDevice; a command the service refuses 403 ProviderRefused', async () => {
    const { token } = await connected(app());
    fake.setDevice(null);
    for (const command of COMMANDS) {
      const result = await app().procedure(M(command), undefined, token);
      assert.deepEqual(
        [result.status, result.body],
        [409, { error: 'NoActiveDevice', message: 'no active musicstream device: start playing on a device first' }],
      );
    }
    fake.setDevice('Kitchen');
    fake.setPlaying({ title: 'Desfado', artist: 'Ana Moura' }, false);
    const refused = await app().procedure(M('pause'), undefined, token);
    assert.deepEqual([refused.status, refused.body.error], [403, 'ProviderRefused']);
    assert.match(refused.body.message, /Restriction violated/);
  });

  test('the service limiting requests is 429 with Retry-After; failing or dropping the connection 502', async () => {
    const { token } = await connected(app());
    fake.setDevice('Kitchen');
    fake.server.failNext({ status: 429, headers: { 'retry-after': '12' } }, '/me/player/pause');
    const limited = await app().procedure(M('pause'), undefined, token);
    assert.deepEqual([limited.status, limited.body.error, limited.headers.get('retry-after')], [429, 'RateLimitExceeded', '12']);
    fake.server.failNext({ status: 503 }, '/me/player/currently-playing');
    const failed = await app().query(M('getCurrentlyPlaying'), {}, token);
    assert.deepEqual([failed.status, failed.body.error], [502, 'ProviderUnavailable']);
    fake.server.failNext('drop', '/me/player/next');
    const dropped = await app().procedure(M('next'), undefined, token);
    assert.deepEqual([dropped.status, dropped.body.error], [502, 'ProviderUnavailable']);
  });

  test('an expired access token is refreshed without the caller noticing', async () => {
    const { token } = await connected(app());
    fake.setDevice('Kitchen');
    fake.setPlaying({ title: 'Desfado', artist: 'Ana Moura' });
    fake.oauth.expireAccessTokens();
    const refreshes = fake.oauth.tokenCalls.refresh_token;
    const result = await app().procedure(M('pause'), undefined, token);
    assert.deepEqual([result.status, result.body], [200, { success: true }]);
    assert.equal(fake.oauth.tokenCalls.refresh_token, refreshes + 1);
    assert.equal(fake.isPlaying, false);
  });

  // Last: it revokes every grant the fake has made.
  test('a revoked grant is 409 ConnectionBroken and shows as broken in getConnections', async () => {
    const { token } = await connected(app());
    fake.oauth.revokeAll();
    const result = await app().procedure(M('play'), undefined, token);
    assert.deepEqual([result.status, result.body.error], [409, 'ConnectionBroken']);
    const { connections } = (await app().query('app.svc.provider.getConnections', {}, token)).body;
    assert.equal(connections.length, 1);
    assert.equal(connections[0].status, 'broken');
    assert.match(connections[0].statusReason, /reconnect at \/providers\/musicstream\/connect/);
    assert.equal((await app().query(M('getCurrentlyPlaying'), {}, token)).body.error, 'ConnectionBroken');
  });
});
