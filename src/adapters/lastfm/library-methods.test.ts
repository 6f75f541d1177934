import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { LastFmNode, type LastFmSession } from 'lastfm';
import { describeWithApp } from '../../app/testing.ts';
import { createClientAccount, lastfmCall, type ClientAccount } from './lastfm-testing.ts';

/** The library reports through success/error handlers; this turns one call into a promise. */
function settle<T = any>(start: (handlers: { success: (result: T) => void; error: (error: any) => void }) => void): Promise<T> {
  return new Promise((resolve, reject) => start({ success: resolve, error: reject }));
}

const TIMESTAMP = Math.floor(Date.parse('2025-05-01T12:00:00Z') / 1000);

describeWithApp('Last.fm library.removeScrobble', (app) => {
  let dana: ClientAccount;
  let lastfm: LastFmNode;
  let session: LastFmSession;

  before(async () => {
    dana = await createClientAccount(app(), 'rm-dana');
    const { hostname, port } = new URL(app().scrobblerUrl);
    lastfm = new LastFmNode({ api_key: dana.key, secret: dana.sharedSecret, host: hostname, port: Number(port) });
    const result = await settle((handlers) =>
      lastfm.request('auth.getMobileSession', { username: dana.handle, password: dana.password, write: true, handlers }),
    );
    session = lastfm.session({ user: result.session.name, key: result.session.key });
  });

  const plays = () => app().ctx.db.selectFrom('scrobbles').select('listened_at').where('user_id', '=', dana.userId).orderBy('listened_at').execute();
  const scrobble = (track: string, timestamp: number) =>
    settle((handlers) => lastfm.update('scrobble', session, { artist: 'Stereolab', track, timestamp, handlers }));

  test('removes the play named by artist, track and timestamp, through the npm client', async () => {
    await scrobble('French Disko', TIMESTAMP);
    await scrobble('Ping Pong', TIMESTAMP + 300);

    // Names match as the catalog matches them, so the client's own spelling of a credit works.
    const removed = await settle((handlers) =>
      lastfm.request('library.removeScrobble', { sk: session.key, artist: 'stereolab', track: 'FRENCH DISKO', timestamp: TIMESTAMP, handlers }),
    );
    assert.deepEqual(removed, {});
    assert.deepEqual(await plays(), [{ listened_at: new Date((TIMESTAMP + 300) * 1000) }]);
  });

  test('no such play is error 7; missing parameters are error 6; nothing else goes', async () => {
    await scrobble('Cybele’s Reverie', TIMESTAMP + 600);
    const count = (await plays()).length;
    for (const params of [
      { artist: 'Stereolab', track: 'French Disko', timestamp: TIMESTAMP },
      { artist: 'Stereolab', track: 'Ping Pong', timestamp: TIMESTAMP + 1 },
      { artist: 'Broadcast', track: 'Ping Pong', timestamp: TIMESTAMP + 300 },
    ]) {
      const error = await settle((handlers) => lastfm.request('library.removeScrobble', { sk: session.key, ...params, handlers })).catch((failure) => failure);
      assert.equal(error.error, 7, JSON.stringify(params));
    }

    const form = { method: 'library.removeScrobble', api_key: dana.key, sk: session.key, artist: 'Stereolab', track: 'Ping Pong' };
    for (const params of [form, { ...form, timestamp: 'noon' }, { ...form, timestamp: String(TIMESTAMP + 300), artist: ' ' }]) {
      const result = await lastfmCall(app(), { ...params, format: 'json' }, { secret: dana.sharedSecret });
      assert.equal(result.status, 400);
      assert.equal(result.body.error, 6, JSON.stringify(result.body));
    }
    const notSigned = await lastfmCall(app(), { ...form, timestamp: String(TIMESTAMP + 300) }, { secret: false });
    assert.match(notSigned.body, /<error code="13">/);
    const byGet = await lastfmCall(app(), { ...form, timestamp: String(TIMESTAMP + 300) }, { secret: dana.sharedSecret, httpMethod: 'GET' });
    assert.match(byGet.body, /<error code="3">/);
    assert.equal((await plays()).length, count);

    const xml = await lastfmCall(app(), { ...form, timestamp: String(TIMESTAMP + 300) }, { secret: dana.sharedSecret });
    assert.equal(xml.status, 200);
    assert.equal(xml.body, '<?xml version="1.0" encoding="UTF-8"?>\n<lfm status="ok"></lfm>\n');
    assert.equal((await plays()).length, count - 1);
  });
});
