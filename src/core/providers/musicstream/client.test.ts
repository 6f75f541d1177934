import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ProviderError } from '../errors.ts';
import { AccessTokenRefused } from '../http.ts';
import type { StreamingClient } from '../types.ts';
import { createMusicstreamClient } from './client.ts';
import { startFakeMusicstream, type FakeMusicstream } from './fake.ts';

const at = (minute: number) => new Date(Date.UTC(2024, 4, 1, 12, minute, 0, 250));

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
  return error;
}

describe('musicstream client against the fake', () => {
  let fake: FakeMusicstream;
  let client: StreamingClient;
  let token: string;
  before(async () => {
    fake = await startFakeMusicstream({ account: 'listener', pageSize: 2 });
    client = createMusicstreamClient(fake.config);
    token = fake.oauth.grant().accessToken;
  });
  after(() => fake.close());

  test('asks for the scopes it needs, with PKCE, and names the account', async () => {
    assert.equal(client.oauth.pkce, true);
    assert.ok(client.oauth.scopes.includes('user-read-recently-played'));
    assert.deepEqual(await client.account(token), { id: 'listener', name: 'listener' });
  });

  test('a refused access token is AccessTokenRefused, for connections.ts to refresh', async () => {
    await assert.rejects(client.account('nonsense'), AccessTokenRefused);
  });

  test('player commands reach the device; no device is NoActiveDevice, a refused command Refused', async () => {
    fake.setDevice('Kitchen');
    fake.setPlaying({ title: 'Desfado', artist: 'Ana Moura', durationMs: 200_000 });
    await client.pause(token);
    assert.equal(fake.isPlaying, false);
    const refused = await failure(client.pause(token));
    assert.equal(refused.failure, 'Refused');
    assert.match(refused.message, /Restriction violated/);
    await client.play(token);
    assert.equal(fake.isPlaying, true);
    fake.setDevice(null);
    for (const command of [client.pause, client.play, client.next, client.previous]) {
      const error = await failure(command(token));
      assert.equal(error.failure, 'NoActiveDevice');
      assert.equal(error.message, 'no active musicstream device: start playing on a device first');
    }
    assert.deepEqual(fake.server.requests.filter((request) => request.startsWith('PUT') || request.startsWith('POST /me')).slice(-4), [
      'PUT /me/player/pause',
      'PUT /me/player/play',
      'POST /me/player/next',
      'POST /me/player/previous',
    ]);
  });

  test('currently playing: the track as Earshot describes it, or null when nothing plays', async () => {
    fake.setDevice('Kitchen');
    fake.setPlaying({ title: 'Primavera', artist: 'Mariza', album: 'Transparente', durationMs: 150_000 }, false);
    const playing = await client.currentlyPlaying(token);
    assert.equal(playing?.isPlaying, false);
    assert.equal(playing?.progressMs, 0);
    assert.equal(playing?.device, null);
    assert.deepEqual(
      { ...playing?.track, id: undefined, url: undefined, artUrl: undefined },
      {
        id: undefined,
        title: 'Primavera',
        artists: ['Mariza'],
        album: 'Transparente',
        albumArtist: 'Mariza',
        durationMs: 150_000,
        isrc: undefined,
        trackNumber: 1,
        discNumber: 1,
        url: undefined,
        artUrl: undefined,
      },
    );
    assert.match(playing!.track!.url!, /^https:\/\/open\.spotify\.com\/track\/[A-Za-z0-9]{22}$/);
    assert.equal(playing!.track!.url, `https://open.spotify.com/track/${playing!.track!.id}`);
    await client.next(token);
    assert.equal((await client.currentlyPlaying(token))?.track?.title, 'Desfado');
    fake.setPlaying(null);
    assert.equal(await client.currentlyPlaying(token), null);
  });

  test('recently played: oldest first, the latest page without a cursor, then only newer plays across pages', async () => {
    fake.addRecentPlay({ title: 'One', artist: 'A', isrc: 'USAAA2400001', playedAt: at(1) });
    fake.addRecentPlay({ title: 'Two', artist: 'A', playedAt: at(2) });
    fake.addRecentPlay({ title: 'Three', artist: 'A', playedAt: at(3) });
    // No cursor: what the service lists first (a page of two here), as a new connection would.
    const first = await client.recentlyPlayed(token, null);
    assert.deepEqual(
      first.plays.map((play) => [play.track.title, play.playedAt.toISOString()]),
      [
        ['Two', at(2).toISOString()],
        ['Three', at(3).toISOString()],
      ],
    );
    assert.equal(first.cursor, String(at(3).getTime()));

    const none = await client.recentlyPlayed(token, first.cursor);
    assert.deepEqual(none, { plays: [], cursor: first.cursor });

    for (let minute = 4; minute <= 8; minute++) fake.addRecentPlay({ title: `Play ${minute}`, artist: 'B', playedAt: at(minute) });
    const before = fake.server.requests.length;
    const later = await client.recentlyPlayed(token, first.cursor);
    assert.deepEqual(
      later.plays.map((play) => play.track.title),
      ['Play 4', 'Play 5', 'Play 6', 'Play 7', 'Play 8'],
    );
    assert.equal(later.cursor, String(at(8).getTime()));
    assert.equal(fake.server.requests.length - before, 3, 'three pages of two');
    assert.deepEqual(
      fake.server.requests.slice(before).map((request) => new URL(request.split(' ')[1]!, fake.url).searchParams.get('after')),
      [at(3), at(5), at(7)].map((date) => String(date.getTime())),
    );
  });

  test('the service limiting requests or failing is RateLimited or Unavailable', async () => {
    fake.server.failNext({ status: 429, headers: { 'retry-after': '7' } }, '/me/player/recently-played');
    const limited = await failure(client.recentlyPlayed(token, null));
    assert.deepEqual([limited.failure, limited.retryAfterSeconds], ['RateLimited', 7]);
    fake.server.failNext({ status: 503 }, '/me/player/pause');
    assert.equal((await failure(client.pause(token))).failure, 'Unavailable');
    fake.server.failNext('drop', '/me/player/currently-playing');
    assert.equal((await failure(client.currentlyPlaying(token))).failure, 'Unavailable');
  });
});
