import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { LastFmNode, type LastFmSession } from 'lastfm';
import { currentNowPlaying } from '../../core/scrobbling/ingest.ts';
import { describeWithApp, jsonRequest } from '../../app/testing.ts';
import { createClientAccount, type ClientAccount } from './lastfm-testing.ts';

/** The library reports through success/error handlers; this turns one call into a promise. */
function settle<T = any>(start: (handlers: { success: (result: T) => void; error: (error: any) => void }) => void): Promise<T> {
  return new Promise((resolve, reject) => start({ success: resolve, error: reject }));
}

// A real client's round trips: the methods' reads and writes run on both backends in the Last.fm suites.
describeWithApp(
  'Last.fm 2.0 through the `lastfm` npm client',
  (app) => {
    let carol: ClientAccount;
    let lastfm: LastFmNode;
    let server: { host: string; port: number };

    before(async () => {
      carol = await createClientAccount(app(), 'lib-carol');
      const { hostname, port } = new URL(app().scrobblerUrl);
      server = { host: hostname, port: Number(port) };
      lastfm = new LastFmNode({ api_key: carol.key, secret: carol.sharedSecret, ...server });
    });

    test('mobile session, now playing, scrobble and love', async () => {
      const result = await settle((handlers) =>
        lastfm.request('auth.getMobileSession', { username: carol.handle, password: carol.password, write: true, handlers }),
      );
      assert.equal(result.session.name, 'lib-carol');
      const session = lastfm.session({ user: result.session.name, key: result.session.key });

      await settle((handlers) => lastfm.update('nowplaying', session, { artist: 'Boards of Canada', track: 'Roygbiv', duration: 150, handlers }));
      assert.equal((await currentNowPlaying(app().ctx, carol.userId))?.submitted.track, 'Roygbiv');

      const timestamp = Math.floor(Date.parse('2025-05-01T12:00:00Z') / 1000);
      await settle((handlers) =>
        lastfm.update('scrobble', session, { artist: 'Boards of Canada', track: 'Roygbiv', album: 'Music Has the Right to Children', timestamp, handlers }),
      );
      const stored = await app().ctx.db.selectFrom('scrobbles').select(['listened_at', 'source']).where('user_id', '=', carol.userId).execute();
      assert.deepEqual(stored, [{ listened_at: new Date(timestamp * 1000), source: 'lastfm' }]);

      await settle((handlers) => lastfm.request('track.love', { sk: session.key, artist: 'Boards of Canada', track: 'Roygbiv', handlers }));
      const stars = await app().ctx.db.selectFrom('stars').select('subject_kind').where('user_id', '=', carol.userId).execute();
      assert.deepEqual(stars, [{ subject_kind: 'song' }]);
    });

    test('desktop authorization: token, approval, session', async () => {
      const { token } = await settle((handlers) => lastfm.request('auth.getToken', { handlers }));
      await jsonRequest(`${app().scrobblerUrl}/api/auth/`, 'POST', {
        body: new URLSearchParams({ api_key: carol.key, token, identifier: carol.handle, password: carol.password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      const session = await settle<LastFmSession>((handlers) => lastfm.session({ token, handlers }));
      assert.equal(session.user, 'lib-carol');
      assert.match(session.key, /^[0-9a-f]{32}$/);
    });

    test('reads: a session by signed GET, recent tracks, top artists and track info, as the client asks for them', async () => {
      // Without `write`, the client sends auth.getMobileSession as a signed GET.
      const result = await settle((handlers) => lastfm.request('auth.getMobileSession', { username: carol.handle, password: carol.password, handlers }));
      const session = lastfm.session({ user: result.session.name, key: result.session.key });
      const timestamp = Math.floor(Date.parse('2025-06-01T12:00:00Z') / 1000);
      for (const at of [timestamp - 600, timestamp]) {
        await settle((handlers) =>
          lastfm.update('scrobble', session, { artist: 'Broadcast', track: 'Pendulum', album: 'Haha Sound', timestamp: at, handlers }),
        );
      }

      // Reads go unsigned, by GET, with the API key only.
      const recent = await settle((handlers) => lastfm.request('user.getRecentTracks', { user: carol.handle, limit: 1, handlers }));
      // The track reported playing in the first test may still head the list, marked as now playing.
      const played = recent.recenttracks.track.filter((track: any) => track['@attr']?.nowplaying !== 'true');
      assert.deepEqual(
        played.map((track: any) => [track.name, track.date.uts]),
        [['Pendulum', String(timestamp)]],
      );
      const top = await settle((handlers) => lastfm.request('user.getTopArtists', { user: carol.handle, period: 'overall', handlers }));
      assert.deepEqual(
        top.topartists.artist.map((artist: any) => [artist.name, artist.playcount]),
        [
          ['Broadcast', '2'],
          ['Boards of Canada', '1'],
        ],
      );
      const info = await settle((handlers) => lastfm.request('track.getInfo', { artist: 'Broadcast', track: 'Pendulum', username: carol.handle, handlers }));
      assert.deepEqual([info.track.name, info.track.userplaycount, info.track.userloved], ['Pendulum', '2', '0']);
      const unknown = await settle((handlers) => lastfm.request('user.getInfo', { user: 'nobody-here', handlers })).catch((failure) => failure);
      assert.deepEqual(unknown, { error: 6, message: 'User not found' });
    });

    test('errors reach the client as Last.fm error codes', async () => {
      const wrongSecret = new LastFmNode({ api_key: carol.key, secret: 'not the secret', ...server });
      const error = await settle((handlers) => wrongSecret.request('auth.getToken', { handlers })).catch((failure) => failure);
      assert.equal(error.error, 13);
    });
  },
  {},
  { storage: 'one' },
);
