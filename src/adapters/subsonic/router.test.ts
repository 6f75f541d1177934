import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { assertWellFormed, errorCode, rest, restJson, subsonicClient, subsonicUser } from './client-testing.ts';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

// How Subsonic requests authenticate and which format answers: the stored data is the core suites' concern.
describeWithApp(
  'Subsonic REST: authentication and formats',
  (app) => {
    let user: Awaited<ReturnType<typeof subsonicUser>>;
    before(async () => {
      user = await subsonicUser(app(), 'sonic');
    });

    test('ping with token (the npm client), p=, p=enc: and apiKey', async () => {
      const byToken = await subsonicClient(app(), { username: user.handle, password: user.key }).ping();
      assert.equal(byToken.status, 'ok');
      assert.equal(byToken.version, '1.16.1');
      assert.ok(byToken.openSubsonic);
      assert.equal(byToken.type, 'earshot');
      const byApiKey = await subsonicClient(app(), { apiKey: user.key }).ping();
      assert.equal(byApiKey.status, 'ok');
      assert.equal((await restJson(app(), 'ping', { u: user.handle, p: user.key })).status, 'ok');
      const hex = Buffer.from(user.key).toString('hex');
      assert.equal((await restJson(app(), 'ping', { u: user.handle, p: `enc:${hex}` })).status, 'ok');
      const posted = await subsonicClient(app(), { username: user.handle, password: user.key }, true).ping();
      assert.equal(posted.status, 'ok', 'a form POST (formPost) authenticates too');
      const split = await fetch(`${app().apiUrl}/rest/ping?f=json&u=${user.handle}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        body: new URLSearchParams({ p: user.key }).toString(),
      });
      assert.equal(((await split.json()) as any)['subsonic-response'].status, 'ok', 'query and form parameters together');
    });

    test('the key kept for token authentication is sealed, not stored in the clear', async () => {
      const row = await app().ctx.db.selectFrom('api_keys').select('subsonic_key').where('user_id', '=', user.userId).executeTakeFirstOrThrow();
      assert.match(row.subsonic_key!, /^v1:/);
      assert.ok(!row.subsonic_key!.includes(user.key));
    });

    test('wrong credentials are 40, missing ones 10, apiKey with u or another credential 43, an unknown apiKey 44', async () => {
      const wrong = await subsonicClient(app(), { username: user.handle, password: 'f'.repeat(32) }).ping();
      assert.equal(wrong.status, 'failed');
      assert.equal(errorCode(wrong), 40);
      assert.equal((await restJson(app(), 'ping', { u: 'nobody', p: user.key })).error.code, 40);
      assert.equal((await restJson(app(), 'ping', { u: user.handle, t: md5('nope' + 'salt'), s: 'salt' })).error.code, 40);
      assert.equal((await restJson(app(), 'ping', { u: user.handle, t: 'é'.repeat(32), s: 'salt' })).error.code, 40, 'a token of the wrong byte length');
      assert.equal((await restJson(app(), 'ping', {})).error.code, 10);
      assert.equal((await restJson(app(), 'ping', { u: user.handle })).error.code, 10);
      assert.equal((await restJson(app(), 'ping', { u: user.handle, apiKey: user.key })).error.code, 43);
      assert.equal((await restJson(app(), 'ping', { apiKey: user.key, p: user.key })).error.code, 43);
      assert.equal((await restJson(app(), 'ping', { apiKey: user.key, t: md5(`${user.key}abc`), s: 'abc' })).error.code, 43);
      assert.equal(errorCode(await subsonicClient(app(), { apiKey: '0'.repeat(32) }).ping()), 44);
      const response = await rest(app(), 'ping', {});
      assert.equal(response.status, 200, 'failures are HTTP 200, as Subsonic has them');
    });

    test('token auth with a key from before sealed keys says to use p= (41); p= still works', async () => {
      await app().ctx.db.updateTable('api_keys').set({ subsonic_key: null }).where('user_id', '=', user.userId).execute();
      try {
        const failed = await restJson(app(), 'ping', { u: user.handle, t: md5(`${user.key}abc`), s: 'abc' });
        assert.equal(failed.error.code, 41);
        assert.match(failed.error.message, /p=/);
        assert.equal((await restJson(app(), 'ping', { u: user.handle, p: user.key })).status, 'ok');
      } finally {
        const fresh = await subsonicUser(app(), 'sonic-fresh');
        user = fresh;
      }
    });

    test('an unknown method is a failed Subsonic response, not a 404', async () => {
      for (const name of ['noSuchThing', 'constructor', '__proto__']) {
        const response = await rest(app(), name, { u: user.handle, p: user.key, f: 'json' });
        assert.equal(response.status, 200);
        const body = (await response.json()) as any;
        assert.equal(body['subsonic-response'].status, 'failed', name);
        assert.equal(body['subsonic-response'].error.code, 0);
      }
    });

    test('XML by default: well-formed, namespaced, attributes escaped; jsonp wraps JSON', async () => {
      const response = await rest(app(), 'getOpenSubsonicExtensions', { u: user.handle, p: user.key });
      assert.match(response.headers.get('content-type') ?? '', /xml/);
      const xml = await response.text();
      assert.match(
        xml,
        /^<\?xml version="1.0" encoding="UTF-8"\?>\n<subsonic-response xmlns="http:\/\/subsonic.org\/restapi" status="ok" version="1.16.1" type="earshot" serverVersion="[^"]+" openSubsonic="true">/,
      );
      assert.match(xml, /<openSubsonicExtensions name="apiKeyAuthentication"><versions>1<\/versions><\/openSubsonicExtensions>/);
      assertWellFormed(xml);
      const failed = await (await rest(app(), 'ping', { u: 'a"<b>&', p: 'x' })).text();
      assertWellFormed(failed);
      assert.match(failed, /<error code="40" message="wrong username or password"\/>/);
      const jsonp = await rest(app(), 'ping', { u: user.handle, p: user.key, f: 'jsonp', callback: 'cb.done' });
      assert.match(jsonp.headers.get('content-type') ?? '', /javascript/);
      const text = await jsonp.text();
      assert.match(text, /^cb\.done\(\{"subsonic-response":\{"status":"ok"/);
      assert.ok(text.endsWith(');'));
    });

    test('getLicense, getOpenSubsonicExtensions, getUser (own only)', async () => {
      const client = subsonicClient(app(), { username: user.handle, password: user.key });
      assert.equal((await client.getLicense()).license.valid, true);
      const names = (await client.getOpenSubsonicExtensions()).openSubsonicExtensions.map((extension) => extension.name);
      assert.deepEqual(names.sort(), ['apiKeyAuthentication', 'formPost', 'indexBasedQueue', 'playbackReport', 'songLyrics']);
      const anonymous = await restJson(app(), 'getOpenSubsonicExtensions', {});
      assert.equal(anonymous.status, 'ok', 'extensions are discoverable before signing in');
      assert.equal(anonymous.openSubsonicExtensions.length, 5);
      const own = await client.getUser({ username: user.handle });
      assert.equal(own.user.username, user.handle);
      assert.equal(own.user.streamRole, true);
      assert.equal(own.user.adminRole, false);
      const other = await client.getUser({ username: 'someone-else' });
      assert.equal(errorCode(other), 50);
    });

    test("booleans as Go's ParseBool reads them: a Python player's public=True renames and shares in one edit", async () => {
      const auth = { u: user.handle, p: user.key };
      const created = await restJson(app(), 'createPlaylist', { ...auth, name: 'Road' });
      const playlistId: string = created.playlist.id;
      const edit = (params: Record<string, string>) => restJson(app(), 'updatePlaylist', { ...auth, playlistId, ...params });
      const shown = async () => (await restJson(app(), 'getPlaylist', { ...auth, id: playlistId })).playlist;
      for (const [text, shared] of [
        ['True', true],
        ['0', false],
        ['T', true],
        ['FALSE', false],
        ['1', true],
        ['f', false],
        ['true', true],
        ['False', false],
      ] as const) {
        const name = `Road ${text}`;
        assert.equal((await edit({ name, public: text })).status, 'ok', `public=${text}`);
        assert.deepEqual({ name: (await shown()).name, public: (await shown()).public }, { name, public: shared }, `public=${text}`);
      }
      for (const text of ['yes', 'tRuE', '2']) {
        const refused = await edit({ name: 'Not this', public: text });
        assert.equal(errorCode(refused), 0, `public=${text}`);
        assert.match(refused.error.message, /parameter public must be true or false/);
      }
      assert.equal((await shown()).name, 'Road False', 'a refused edit changes nothing');
    });
  },
  {},
  { storage: 'one' },
);

test('every registered method has its own name', async () => {
  const { subsonicMethods } = await import('./registry.ts');
  const names = subsonicMethods.map((method) => method.name);
  assert.equal(new Set(names).size, names.length);
});
