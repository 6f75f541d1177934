import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { currentNowPlaying } from '../../core/scrobbling/ingest.ts';
import { describeWithApp, jsonRequest } from '../../app/testing.ts';
import { createClientAccount, lastfmCall, type ClientAccount } from './lastfm-testing.ts';
import { md5Hex as md5, sha256Hex } from '../../core/auth/hashing.ts';

const unix = (iso: string) => String(Date.parse(iso) / 1000);

describeWithApp('Last.fm 2.0 API', (app) => {
  let alice: ClientAccount;
  let sessionKey: string;

  /** A call from alice's client: her API key, her session, signed with her shared secret. */
  const call = (params: Record<string, string>, httpMethod: 'GET' | 'POST' = 'POST') =>
    lastfmCall(app(), { api_key: alice.key, sk: sessionKey, ...params }, { secret: alice.sharedSecret, httpMethod });

  const scrobbleCount = async (userId: string) =>
    Number(
      (
        await app()
          .ctx.db.selectFrom('scrobbles')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    alice = await createClientAccount(app(), 'lfm-alice');
    const result = await lastfmCall(
      app(),
      { method: 'auth.getMobileSession', username: alice.handle, password: alice.password, api_key: alice.key, format: 'json' },
      { secret: alice.sharedSecret },
    );
    assert.equal(result.status, 200, JSON.stringify(result.body));
    sessionKey = result.body.session.key;
  });

  test('auth.getMobileSession answers a session in XML by default, and in JSON', async () => {
    const xml = await lastfmCall(
      app(),
      { method: 'auth.getMobileSession', username: alice.handle, password: alice.password, api_key: alice.key },
      { secret: alice.sharedSecret },
    );
    assert.equal(xml.status, 200);
    assert.match(xml.headers.get('content-type')!, /^text\/xml/);
    assert.match(xml.body, /<lfm status="ok"><session><name>lfm-alice<\/name><key>[0-9a-f]{32}<\/key><subscriber>0<\/subscriber><\/session><\/lfm>/);
    const didLogin = await app().ctx.db.selectFrom('users').select('did').where('id', '=', alice.userId).executeTakeFirstOrThrow();
    const json = await lastfmCall(
      app(),
      { method: 'auth.getmobilesession', username: didLogin.did, password: alice.password, api_key: alice.key, format: 'json' },
      { secret: alice.sharedSecret },
    );
    assert.equal(json.status, 200);
    assert.deepEqual(Object.keys(json.body.session).sort(), ['key', 'name', 'subscriber']);
    assert.equal(json.body.session.subscriber, 0);
    assert.notEqual(json.body.session.key, sessionKey);
    const stored = await app().ctx.db.selectFrom('lastfm_sessions').select('key_hash').where('user_id', '=', alice.userId).execute();
    assert.ok(
      stored.every((row) => row.key_hash !== json.body.session.key),
      'session keys are stored hashed',
    );
  });

  test('auth.getMobileSession by signed GET too; refuses a wrong password (4) and missing parameters (6)', async () => {
    const base = { method: 'auth.getMobileSession', username: alice.handle, api_key: alice.key, format: 'json' };
    const wrong = await lastfmCall(app(), { ...base, password: 'not the password' }, { secret: alice.sharedSecret });
    assert.deepEqual([wrong.status, wrong.body.error], [403, 4]);
    const viaGet = await lastfmCall(app(), { ...base, password: alice.password }, { secret: alice.sharedSecret, httpMethod: 'GET' });
    assert.equal(viaGet.status, 200);
    assert.match(viaGet.body.session.key, /^[0-9a-f]{32}$/);
    const unsignedGet = await lastfmCall(app(), { ...base, password: alice.password }, { secret: false, httpMethod: 'GET' });
    assert.deepEqual([unsignedGet.status, unsignedGet.body.error], [403, 13]);
    const missing = await lastfmCall(app(), base, { secret: alice.sharedSecret });
    assert.deepEqual([missing.status, missing.body.error], [400, 6]);
    assert.match(missing.body.message, /password is required/);
  });

  test("auth.getMobileSession with authToken = md5(username + md5(an API key)), pylast's default; never the account password", async () => {
    const base = { method: 'auth.getMobileSession', username: alice.handle, api_key: alice.key, format: 'json' };
    const signIn = (authToken: string, username = alice.handle) => lastfmCall(app(), { ...base, username, authToken }, { secret: alice.sharedSecret });
    const byKey = await signIn(md5(alice.handle + md5(alice.key)));
    assert.equal(byKey.status, 200, JSON.stringify(byKey.body));
    assert.equal(byKey.body.session.name, 'lfm-alice');
    // Any of the user's keys serves as the password; the session is for the key the call is made with.
    const second = await app().procedure('app.svc.apikey.createApikey', { name: 'second' }, alice.token);
    const bySecond = await signIn(md5(alice.handle + md5(second.body.key)));
    const session = await app()
      .ctx.db.selectFrom('lastfm_sessions')
      .select('api_key_id')
      .where('key_hash', '=', sha256Hex(bySecond.body.session.key))
      .executeTakeFirst();
    assert.equal(session?.api_key_id, alice.apiKeyId);
    // Neither the account password nor another user's key, nor a token made for another name, signs in.
    const bob = await createClientAccount(app(), 'lfm-bob');
    for (const refused of [
      await signIn(md5(alice.handle + md5(alice.password))),
      await signIn(md5(alice.handle + md5(bob.key))),
      await signIn(md5(bob.handle + md5(alice.key))),
      await signIn(md5(alice.handle + md5(alice.key)), 'nobody-here'),
    ]) {
      assert.deepEqual([refused.status, refused.body], [403, { error: 4, message: 'Authentication Failed - Invalid username or password' }]);
    }
    const xml = await lastfmCall(app(), { ...base, format: 'xml', authToken: 'f'.repeat(32) }, { secret: alice.sharedSecret });
    assert.match(xml.body, /<lfm status="failed"><error code="4">Authentication Failed - Invalid username or password<\/error><\/lfm>/);
  });

  test('unknown API keys (10), bad or missing signatures (13), unknown services (2) and methods (3)', async () => {
    const scrobbleParams = { method: 'track.scrobble', artist: 'A', track: 'T', timestamp: unix('2025-01-01T00:00:00Z'), format: 'json' };
    const unknownKey = await lastfmCall(app(), { ...scrobbleParams, api_key: 'f'.repeat(32), sk: sessionKey }, { secret: alice.sharedSecret });
    assert.deepEqual([unknownKey.status, unknownKey.body.error], [403, 10]);
    const badSig = await lastfmCall(app(), { ...scrobbleParams, api_key: alice.key, sk: sessionKey }, { secret: 'wrong secret' });
    assert.deepEqual([badSig.status, badSig.body.error], [403, 13]);
    const noSig = await lastfmCall(app(), { ...scrobbleParams, api_key: alice.key, sk: sessionKey }, { secret: false });
    assert.deepEqual([noSig.status, noSig.body.error], [403, 13]);
    const service = await call({ method: 'geo.getTopArtists', country: 'A', format: 'json' }, 'GET');
    assert.deepEqual([service.status, service.body.error], [400, 2]);
    const method = await call({ method: 'track.getSimilar', format: 'json' }, 'GET');
    assert.deepEqual([method.status, method.body.error], [400, 3]);
    const none = await call({});
    assert.equal(none.status, 400);
    assert.match(none.body, /<lfm status="failed"><error code="3">Invalid Method - No method given<\/error><\/lfm>/);
    assert.equal(await scrobbleCount(alice.userId), 0);
  });

  test('track.scrobble stores a batch in array notation and echoes it', async () => {
    const result = await call({
      method: 'track.scrobble',
      'artist[0]': 'Daft Punk',
      'track[0]': 'Get Lucky',
      'album[0]': 'Random Access Memories',
      'albumArtist[0]': 'Daft Punk',
      'duration[0]': '369',
      'trackNumber[0]': '8',
      'timestamp[0]': unix('2025-03-01T10:00:00Z'),
      'chosenByUser[0]': '1',
      'artist[1]': 'Tom & Jerry <3',
      'track[1]': 'Chase',
      'timestamp[1]': unix('2025-03-01T10:10:00Z'),
    });
    assert.equal(result.status, 200);
    assert.match(result.body, /<scrobbles accepted="2" ignored="0"><scrobble><track corrected="0">Get Lucky<\/track><artist corrected="0">Daft Punk<\/artist>/);
    assert.match(result.body, /<artist corrected="0">Tom &amp; Jerry &lt;3<\/artist>/);
    assert.match(result.body, /<timestamp>1740823200<\/timestamp><ignoredMessage code="0"><\/ignoredMessage>/);
    const rows = await app()
      .ctx.db.selectFrom('scrobbles')
      .innerJoin('tracks', 'tracks.id', 'scrobbles.track_id')
      .select(['tracks.title', 'tracks.duration', 'tracks.track_number', 'scrobbles.source', 'scrobbles.submitted', 'scrobbles.listened_at'])
      .where('scrobbles.user_id', '=', alice.userId)
      .orderBy('scrobbles.listened_at')
      .execute();
    assert.deepEqual(
      rows.map((row) => [row.title, row.duration, row.track_number, row.source]),
      [
        ['Get Lucky', 369_000, 8, 'lastfm'],
        ['Chase', null, null, 'lastfm'],
      ],
    );
    assert.equal(rows[0]!.listened_at.toISOString(), '2025-03-01T10:00:00.000Z');
    assert.equal(rows[0]!.submitted.chosenByUser, '1');
    assert.equal(rows[0]!.submitted.sk, undefined);
  });

  test('track.scrobble in JSON, unindexed, with ignored scrobbles reported per item', async () => {
    const single = await call({ method: 'track.scrobble', artist: 'Solo', track: 'One', timestamp: unix('2025-03-02T00:00:00Z'), format: 'json' });
    assert.equal(single.status, 200);
    assert.deepEqual(single.body.scrobbles['@attr'], { accepted: 1, ignored: 0 });
    assert.deepEqual(single.body.scrobbles.scrobble.artist, { corrected: '0', '#text': 'Solo' });
    assert.deepEqual(single.body.scrobbles.scrobble.ignoredMessage, { code: '0', '#text': '' });

    const future = String(Math.floor(Date.now() / 1000) + 3600);
    const mixed = await call({
      method: 'track.scrobble',
      format: 'json',
      'artist[0]': ' ',
      'track[0]': 'No Artist',
      'timestamp[0]': unix('2025-03-02T01:00:00Z'),
      'artist[1]': 'Clock',
      'track[1]': 'Ahead',
      'timestamp[1]': future,
      'artist[2]': 'Clock',
      'track[2]': 'Behind',
      'timestamp[2]': '100',
      'artist[3]': 'Fine',
      'track[3]': 'Song',
      'timestamp[3]': unix('2025-03-02T02:00:00Z'),
      'artist[4]': 'Blank',
      'track[4]': '',
      'timestamp[4]': unix('2025-03-02T03:00:00Z'),
    });
    assert.equal(mixed.status, 200);
    assert.deepEqual(mixed.body.scrobbles['@attr'], { accepted: 1, ignored: 4 });
    assert.deepEqual(
      mixed.body.scrobbles.scrobble.map((item: any) => item.ignoredMessage.code),
      ['1', '4', '3', '0', '2'],
    );
  });

  test('track.scrobble refuses malformed batches whole (6), GET (3) and bad session keys (9)', async () => {
    const before = await scrobbleCount(alice.userId);
    const missingTimestamp = await call({
      method: 'track.scrobble',
      format: 'json',
      'artist[0]': 'A',
      'track[0]': 'T',
      'timestamp[0]': unix('2025-04-01T00:00:00Z'),
      'artist[1]': 'B',
      'track[1]': 'U',
    });
    assert.deepEqual([missingTimestamp.status, missingTimestamp.body.error], [400, 6]);
    assert.match(missingTimestamp.body.message, /timestamp\[1\] is required/);
    const badTimestamp = await call({ method: 'track.scrobble', format: 'json', artist: 'A', track: 'T', timestamp: '2025-04-01' });
    assert.deepEqual([badTimestamp.status, badTimestamp.body.error], [400, 6]);
    const tooMany: Record<string, string> = { method: 'track.scrobble', format: 'json' };
    for (let i = 0; i < 51; i++) Object.assign(tooMany, { [`artist[${i}]`]: 'A', [`track[${i}]`]: `T${i}`, [`timestamp[${i}]`]: unix('2025-04-02T00:00:00Z') });
    const overLimit = await call(tooMany);
    assert.deepEqual([overLimit.status, overLimit.body.error], [400, 6]);
    assert.equal(await scrobbleCount(alice.userId), before, 'nothing of a refused batch is stored');

    const viaGet = await call({ method: 'track.scrobble', format: 'json', artist: 'A', track: 'T', timestamp: unix('2025-04-01T00:00:00Z') }, 'GET');
    assert.deepEqual([viaGet.status, viaGet.body.error], [400, 3]);
    const params = { method: 'track.scrobble', format: 'json', artist: 'A', track: 'T', timestamp: unix('2025-04-01T00:00:00Z'), api_key: alice.key };
    const badSession = await lastfmCall(app(), { ...params, sk: 'a'.repeat(32) }, { secret: alice.sharedSecret });
    assert.deepEqual([badSession.status, badSession.body.error], [403, 9]);
    const noSession = await lastfmCall(app(), params, { secret: alice.sharedSecret });
    assert.deepEqual([noSession.status, noSession.body.error], [400, 6]);
  });

  test('a session key only works with the API key it was created with, and ends with it', async () => {
    const other = await app().procedure('app.svc.apikey.createApikey', { name: 'second app' }, alice.token);
    const params = { method: 'track.updateNowPlaying', artist: 'A', track: 'T', format: 'json', sk: sessionKey, api_key: other.body.key };
    const crossed = await lastfmCall(app(), params, { secret: other.body.sharedSecret });
    assert.deepEqual([crossed.status, crossed.body.error], [403, 9]);

    const session = await lastfmCall(
      app(),
      { method: 'auth.getMobileSession', username: alice.handle, password: alice.password, api_key: other.body.key, format: 'json' },
      { secret: other.body.sharedSecret },
    );
    const working = await lastfmCall(app(), { ...params, sk: session.body.session.key }, { secret: other.body.sharedSecret });
    assert.equal(working.status, 200);
    await app().procedure('app.svc.apikey.removeApikey', { id: other.body.id }, alice.token);
    const revoked = await lastfmCall(app(), { ...params, sk: session.body.session.key }, { secret: other.body.sharedSecret });
    assert.deepEqual([revoked.status, revoked.body.error], [403, 10]);
    const left = await app().ctx.db.selectFrom('lastfm_sessions').select('id').where('api_key_id', '=', other.body.id).execute();
    assert.equal(left.length, 0);
  });

  test('track.updateNowPlaying sets the now-playing track, not history', async () => {
    const before = await scrobbleCount(alice.userId);
    const result = await call({
      method: 'track.updateNowPlaying',
      artist: 'Air',
      track: 'La Femme d’Argent',
      album: 'Moon Safari',
      duration: '427',
      format: 'json',
    });
    assert.equal(result.status, 200);
    assert.deepEqual(result.body.nowplaying.track, { corrected: '0', '#text': 'La Femme d’Argent' });
    assert.deepEqual(result.body.nowplaying.ignoredMessage, { code: '0', '#text': '' });
    const playing = await currentNowPlaying(app().ctx, alice.userId);
    assert.equal(playing?.submitted.album, 'Moon Safari');
    assert.equal(await scrobbleCount(alice.userId), before);
    const xml = await call({ method: 'track.updateNowPlaying', artist: '  ', track: 'Nobody' });
    assert.match(xml.body, /<nowplaying>.*<ignoredMessage code="1">Artist name is empty<\/ignoredMessage><\/nowplaying>/);
    const missing = await call({ method: 'track.updateNowPlaying', track: 'Nobody', format: 'json' });
    assert.deepEqual([missing.status, missing.body.error], [400, 6]);
  });

  test('track.love stars the matched song and track.unlove removes the star', async () => {
    const stars = () =>
      app()
        .ctx.db.selectFrom('stars')
        .innerJoin('tracks', 'tracks.id', 'stars.subject_id')
        .select('tracks.title')
        .where('stars.user_id', '=', alice.userId)
        .where('stars.subject_kind', '=', 'song')
        .execute();
    const loved = await call({ method: 'track.love', artist: 'daft punk', track: 'get lucky' });
    assert.equal(loved.status, 200);
    assert.match(loved.body, /<lfm status="ok"><\/lfm>/);
    assert.deepEqual(await stars(), [{ title: 'Get Lucky' }]);
    const again = await call({ method: 'track.love', artist: 'Daft Punk', track: 'Get Lucky', format: 'json' });
    assert.deepEqual([again.status, again.body], [200, {}]);
    assert.equal((await stars()).length, 1);
    const unloved = await call({ method: 'track.unlove', artist: 'Daft Punk', track: 'Get Lucky', format: 'json' });
    assert.deepEqual([unloved.status, unloved.body], [200, {}]);
    assert.deepEqual(await stars(), []);
    const blank = await call({ method: 'track.love', artist: 'Daft Punk', track: ' ', format: 'json' });
    assert.deepEqual([blank.status, blank.body.error], [400, 6]);
  });

  test('a failure inside the server is error 16, temporarily unavailable', async () => {
    await sql`alter table stars rename to stars_away`.execute(app().ctx.db);
    try {
      const result = await call({ method: 'track.love', artist: 'Daft Punk', track: 'Get Lucky', format: 'json' });
      assert.deepEqual([result.status, result.body.error], [503, 16]);
    } finally {
      await sql`alter table stars_away rename to stars`.execute(app().ctx.db);
    }
  });

  test('desktop flow: getToken, approval on /api/auth/, getSession', async () => {
    const signed = (params: Record<string, string>) =>
      lastfmCall(app(), { api_key: alice.key, format: 'json', ...params }, { secret: alice.sharedSecret, httpMethod: 'GET' });
    const { body } = await signed({ method: 'auth.getToken' });
    const token: string = body.token;
    assert.match(token, /^[0-9a-f]{32}$/);
    const early = await signed({ method: 'auth.getSession', token });
    assert.deepEqual([early.status, early.body.error], [403, 14]);

    const pageUrl = `${app().scrobblerUrl}/api/auth/?api_key=${alice.key}&token=${token}`;
    const page = await jsonRequest<string>(pageUrl, 'GET');
    assert.equal(page.status, 200);
    assert.match(page.body, /lfm-alice player/);
    assert.equal(page.headers.get('x-frame-options'), 'DENY');
    const approve = (password: string) =>
      jsonRequest<string>(pageUrl, 'POST', {
        body: new URLSearchParams({ api_key: alice.key, token, identifier: alice.handle, password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    assert.equal((await approve('wrong password')).status, 401);
    assert.equal((await signed({ method: 'auth.getSession', token })).body.error, 14);
    const approved = await approve(alice.password);
    assert.equal(approved.status, 200);
    assert.match(approved.body, /can now scrobble as <strong>lfm-alice<\/strong>/);

    const session = await signed({ method: 'auth.getSession', token });
    assert.equal(session.status, 200);
    assert.equal(session.body.session.name, 'lfm-alice');
    const reused = await signed({ method: 'auth.getSession', token });
    assert.deepEqual([reused.status, reused.body.error], [403, 4]);
    const works = await lastfmCall(
      app(),
      { method: 'track.updateNowPlaying', artist: 'A', track: 'T', api_key: alice.key, sk: session.body.session.key, format: 'json' },
      { secret: alice.sharedSecret },
    );
    assert.equal(works.status, 200);
  });

  test('desktop-flow tokens expire after 60 minutes (15); bad links show an explanation', async () => {
    const signed = (params: Record<string, string>) => lastfmCall(app(), { api_key: alice.key, format: 'json', ...params }, { secret: alice.sharedSecret });
    const { body } = await signed({ method: 'auth.getToken' });
    await app()
      .ctx.db.updateTable('lastfm_tokens')
      .set({ expires_at: sql<Date>`now() - interval '1 second'` })
      .where('api_key_id', '=', alice.apiKeyId)
      .execute();
    const expired = await signed({ method: 'auth.getSession', token: body.token });
    assert.deepEqual([expired.status, expired.body.error], [403, 15]);
    const page = await jsonRequest<string>(`${app().scrobblerUrl}/api/auth/?api_key=${alice.key}&token=${body.token}`, 'GET');
    assert.equal(page.status, 400);
    assert.match(page.body, /expired/);
    const unknown = await jsonRequest<string>(`${app().scrobblerUrl}/api/auth/?api_key=${'0'.repeat(32)}&token=x`, 'GET');
    assert.equal(unknown.status, 400);
    const missingToken = await signed({ method: 'auth.getSession' });
    assert.deepEqual([missingToken.status, missingToken.body.error], [400, 6]);
  });
});
