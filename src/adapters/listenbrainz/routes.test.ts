import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp, postLargeBody, type TestApp } from '../../app/testing.ts';
import { ingestListens } from '../../core/scrobbling/ingest.ts';
import { MAX_LISTEN_PAYLOAD_SIZE } from './submission.ts';
import { lb, lbUser, type LbUser } from './listenbrainz-testing.ts';

const RECORDING = '98255a8c-017a-4bc7-8dd6-1fa36124572b';
const rick = { artist_name: 'Rick Astley', track_name: 'Never Gonna Give You Up', release_name: 'Whenever You Need Somebody' };

function submit(app: TestApp, user: LbUser, document: unknown, headers: Record<string, string> = {}) {
  return lb(app, 'POST', '/submit-listens', { body: document, headers: { authorization: `Token ${user.key}`, ...headers } });
}

async function scrobbleCount(app: TestApp, user: LbUser): Promise<number> {
  const rows = await app.ctx.db.selectFrom('scrobbles').select('id').where('user_id', '=', user.userId).execute();
  return rows.length;
}

describeWithApp('ListenBrainz API v1', (app) => {
  test('single: stored as a scrobble from listenbrainz, read back as ListenBrainz sent it', async () => {
    const user = await lbUser(app(), 'lb-single');
    const listen = {
      listened_at: 1_700_000_000,
      track_metadata: { ...rick, additional_info: { recording_mbid: RECORDING, duration_ms: 213000, media_player: 'Rhythmbox' } },
    };
    const result = await submit(app(), user, { listen_type: 'single', payload: [listen] });
    assert.equal(result.status, 200);
    const [row] = await app()
      .ctx.db.selectFrom('scrobbles')
      .innerJoin('tracks', 'tracks.id', 'scrobbles.track_id')
      .select(['scrobbles.source', 'scrobbles.submitted', 'scrobbles.listened_at', 'tracks.id', 'tracks.title', 'tracks.mbid', 'tracks.duration'])
      .where('scrobbles.user_id', '=', user.userId)
      .execute();
    assert.equal(row!.source, 'listenbrainz');
    assert.deepEqual(row!.submitted, listen);
    assert.equal(row!.listened_at.toISOString(), '2023-11-14T22:13:20.000Z');
    assert.deepEqual([row!.title, row!.mbid, row!.duration], ['Never Gonna Give You Up', RECORDING, 213000]);
    const stored = { index: 0, outcome: 'stored', recording_msid: row!.id };
    assert.deepEqual(result.body, { status: 'ok', payload: { submitted: 1, stored: 1, duplicate: 0, ignored: 0, listens: [stored] } });

    const listens = await lb(app(), 'GET', `/user/${user.handle}/listens`);
    assert.equal(listens.status, 200);
    assert.equal(listens.body.payload.count, 1);
    assert.equal(listens.body.payload.user_id, user.handle);
    const [read] = listens.body.payload.listens;
    assert.equal(read.listened_at, 1_700_000_000);
    assert.equal(read.user_name, user.handle);
    assert.equal(typeof read.inserted_at, 'number');
    assert.equal(typeof read.recording_msid, 'string');
    assert.deepEqual(read.track_metadata, {
      ...listen.track_metadata,
      additional_info: { ...listen.track_metadata.additional_info, recording_msid: read.recording_msid },
    });

    const count = await lb(app(), 'GET', `/user/${user.handle}/listen-count`);
    assert.deepEqual(count.body, { payload: { count: 1 } });
  });

  test("additional_info.duration_played is stored as the play's listening time", async () => {
    const user = await lbUser(app(), 'lb-played');
    const listen = { listened_at: 1_700_000_500, track_metadata: { ...rick, additional_info: { duration_ms: 213_000, duration_played: 180 } } };
    assert.equal((await submit(app(), user, { listen_type: 'single', payload: [listen] })).status, 200);
    const row = await app().ctx.db.selectFrom('scrobbles').select('played_ms').where('user_id', '=', user.userId).executeTakeFirstOrThrow();
    assert.equal(row.played_ms, 180_000);
  });

  test('import: many listens at once; a resubmission stores nothing twice, and says so listen by listen', async () => {
    const user = await lbUser(app(), 'lb-import');
    const payload = [0, 1, 2].map((i) => ({ listened_at: 1_700_000_000 + i * 300, track_metadata: { artist_name: 'Daft Punk', track_name: `Track ${i}` } }));
    const first = await submit(app(), user, { listen_type: 'import', payload: [...payload, payload[0]] });
    assert.equal(first.status, 200);
    const { listens, ...counts } = first.body.payload;
    assert.deepEqual(counts, { submitted: 4, stored: 3, duplicate: 1, ignored: 0 });
    assert.deepEqual(
      listens.map((listen: { index: number; outcome: string }) => [listen.index, listen.outcome]),
      [
        [0, 'stored'],
        [1, 'stored'],
        [2, 'stored'],
        [3, 'duplicate'],
      ],
    );
    assert.equal(listens[3].recording_msid, listens[0].recording_msid);
    const again = await submit(app(), user, { listen_type: 'import', payload });
    assert.equal(again.body.status, 'ok');
    assert.deepEqual([again.body.payload.stored, again.body.payload.duplicate], [0, 3]);
    assert.equal(await scrobbleCount(app(), user), 3);
    // The recording_msid of an outcome is the one the listens carry.
    const read = await lb(app(), 'GET', `/user/${user.handle}/listens?count=1&min_ts=${1_700_000_000 - 1}`);
    assert.equal(read.body.payload.listens[0].recording_msid, listens[0].recording_msid);
  });

  test('playing_now: shown by playing-now, kept out of the history', async () => {
    const user = await lbUser(app(), 'lb-playing');
    const nothing = await lb(app(), 'GET', `/user/${user.handle}/playing-now`);
    assert.deepEqual(nothing.body, { payload: { count: 0, user_id: user.handle, listens: [], playing_now: true } });
    const track_metadata = { ...rick, additional_info: { duration: 213 } };
    const submitted = await submit(app(), user, { listen_type: 'playing_now', payload: [{ track_metadata }] });
    assert.equal(submitted.status, 200);
    assert.deepEqual(
      submitted.body.payload.listens.map((listen: { outcome: string }) => listen.outcome),
      ['playing_now'],
    );
    assert.equal(await scrobbleCount(app(), user), 0);
    const playing = await lb(app(), 'GET', `/user/${user.handle}/playing-now`);
    assert.equal(playing.status, 200);
    assert.equal(playing.body.payload.count, 1);
    assert.equal(playing.body.payload.playing_now, true);
    const [listen] = playing.body.payload.listens;
    assert.equal(listen.playing_now, true);
    assert.equal(listen.listened_at, undefined);
    assert.deepEqual(listen.track_metadata, {
      ...track_metadata,
      additional_info: { duration: 213, recording_msid: listen.track_metadata.additional_info.recording_msid },
    });
  });

  test('a bad listen rejects the whole request with {code, error} and stores nothing', async () => {
    const user = await lbUser(app(), 'lb-reject');
    const good = { listened_at: 1_700_000_000, track_metadata: rick };
    for (const [document, message] of [
      [{ listen_type: 'import', payload: [good, { ...good, listened_at: 1_000_000_000 }] }, /listened_at is too low/],
      [{ listen_type: 'import', payload: [good, { listened_at: 1_700_000_001, track_metadata: { artist_name: 'x' } }] }, /track_metadata\.track_name/],
      [
        { listen_type: 'import', payload: [good, { ...good, track_metadata: { ...rick, additional_info: { tags: Array(51).fill('x') } } }] },
        /more than 50 items/,
      ],
      [{ listen_type: 'import', payload: [good, { ...good, track_metadata: { ...rick, additional_info: { comment: 'a\u0000b' } } }] }, /NUL character/],
      [{ listen_type: 'single', payload: [good, good] }, /only one/],
      [{ listen_type: 'playing_now', payload: [good] }, /must not contain listened_at/],
      [{ listen_type: 'single', payload: [{ track_metadata: rick }] }, /must contain the key listened_at/],
      [{ listen_type: 'listen', payload: [good] }, /valid listen_type/],
      ['{"listen_type": "single", "payload": [', /Cannot parse JSON document/],
      [['not', 'a', 'document'], /Invalid JSON document/],
    ] as const) {
      const result = await submit(app(), user, document);
      assert.equal(result.status, 400, JSON.stringify(document));
      assert.equal(result.body.code, 400);
      assert.match(result.body.error, message);
      assert.deepEqual(Object.keys(result.body).sort(), ['code', 'error']);
    }
    assert.equal(await scrobbleCount(app(), user), 0);
  });

  test(`a body over ${MAX_LISTEN_PAYLOAD_SIZE} bytes is refused with a ListenBrainz 400`, async () => {
    const user = await lbUser(app(), 'lb-huge');
    const result = await submit(app(), user, `{"listen_type":"import","payload":[],"padding":"${'x'.repeat(MAX_LISTEN_PAYLOAD_SIZE)}"}`);
    assert.equal(result.status, 400);
    assert.equal(result.body.code, 400);
    assert.match(result.body.error, /Payload too large/);
  });

  test('the body is read as JSON whatever its content type, as ListenBrainz does', async () => {
    const user = await lbUser(app(), 'lb-content');
    const document = (i: number) => JSON.stringify({ listen_type: 'single', payload: [{ listened_at: 1_700_000_000 + i, track_metadata: rick }] });
    assert.equal((await submit(app(), user, document(1), { 'content-type': 'text/plain;charset=UTF-8' })).status, 200);
    assert.equal((await submit(app(), user, document(2), { 'content-type': 'application/x-www-form-urlencoded' })).status, 200);
    const untyped = await fetch(`${app().scrobblerUrl}/1/submit-listens`, {
      method: 'POST',
      headers: { authorization: `Token ${user.key}` },
      body: new TextEncoder().encode(document(3)),
    });
    assert.equal(untyped.status, 200);
    assert.equal(await scrobbleCount(app(), user), 3);
    const empty = await submit(app(), user, '');
    assert.equal(empty.status, 400);
    assert.match(empty.body.error, /Cannot parse JSON document/);
  });

  test('submit-listens needs an Earshot API key as the token; its use is recorded', async () => {
    const user = await lbUser(app(), 'lb-auth');
    const document = { listen_type: 'single', payload: [{ listened_at: 1_700_000_000, track_metadata: rick }] };
    for (const [authorization, message] of [
      [undefined, 'You need to provide an Authorization header.'],
      ['Token', 'Provided Authorization header is invalid.'],
      ['Token 0123456789abcdef0123456789abcdef', 'Invalid authorization token.'],
      [`Token ${user.token}`, 'Invalid authorization token.'],
    ] as const) {
      const result = await lb(app(), 'POST', '/submit-listens', { body: document, headers: authorization ? { authorization } : {} });
      assert.equal(result.status, 401, String(authorization));
      assert.deepEqual(result.body, { code: 401, error: message });
    }
    assert.equal(await scrobbleCount(app(), user), 0);
    assert.equal((await submit(app(), user, document)).status, 200);
    const keys = await app().query('app.svc.apikey.getApikeys', {}, user.token);
    assert.ok(keys.body.apikeys[0].lastUsedAt);
  });

  test('an unauthenticated 10 MB submission is refused with 401 before its body has been sent', async () => {
    const url = `${app().scrobblerUrl}/1/submit-listens`;
    for (const headers of [{}, { authorization: 'Token 0123456789abcdef0123456789abcdef' }] as Record<string, string>[]) {
      const result = await postLargeBody(url, 10_000_000, headers);
      assert.equal(result.status, 401);
      assert.equal(JSON.parse(result.body).code, 401);
      assert.equal(result.bodyComplete, false, 'the server waited for the body');
    }
  });

  test('an oversized body without a token is 401, not the 400 of its size', async () => {
    const result = await lb(app(), 'POST', '/submit-listens', { body: `{"padding":"${'x'.repeat(MAX_LISTEN_PAYLOAD_SIZE)}"}` });
    assert.deepEqual(result.body, { code: 401, error: 'You need to provide an Authorization header.' });
  });

  test('a known path asked with another method is 405 with Allow; an unknown path is 404', async () => {
    const wrong = await lb(app(), 'GET', '/submit-listens');
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'POST');
    assert.deepEqual(wrong.body, { code: 405, error: 'The method is not allowed for the requested URL.' });
    const posted = await lb(app(), 'POST', '/user/nobody/listens', { body: {} });
    assert.equal(posted.status, 405);
    assert.match(posted.headers.get('allow') ?? '', /GET/);
    const unknown = await lb(app(), 'GET', '/nothing-here');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.code, 404);
  });

  test('validate-token: by header or ?token=', async () => {
    const user = await lbUser(app(), 'lb-validate');
    const valid = { code: 200, message: 'Token valid.', valid: true, user_name: user.handle };
    assert.deepEqual((await lb(app(), 'GET', '/validate-token', { headers: { authorization: `Token ${user.key}` } })).body, valid);
    assert.deepEqual((await lb(app(), 'GET', `/validate-token?token=${user.key}`)).body, valid);
    assert.deepEqual((await lb(app(), 'GET', `/validate-token?token=${user.key}&token=other`)).body, valid);
    const invalid = { code: 200, message: 'Token invalid.', valid: false };
    for (const options of [{ headers: { authorization: 'Token 0123456789abcdef0123456789abcdef' } }, { headers: { authorization: 'Token' } }]) {
      const result = await lb(app(), 'GET', '/validate-token', options);
      assert.equal(result.status, 200);
      assert.deepEqual(result.body, invalid);
    }
    assert.deepEqual((await lb(app(), 'GET', `/validate-token?token=${user.token}`)).body, invalid);
    const missing = await lb(app(), 'GET', '/validate-token');
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { code: 400, error: 'You need to provide an Authorization token.' });
  });

  test('listens: newest first, paged by max_ts or min_ts, with the user’s first and last timestamps', async () => {
    const user = await lbUser(app(), 'lb-pages');
    const base = 1_700_000_000;
    await ingestListens(
      app().ctx,
      user.userId,
      [0, 1, 2, 3, 4].map((i) => ({ artist: 'Boards of Canada', title: `Song ${i}`, listenedAt: new Date((base + i * 60) * 1000) })),
      'api',
    );
    const times = async (query: string) => {
      const result = await lb(app(), 'GET', `/user/${user.handle}/listens${query}`);
      assert.equal(result.status, 200, JSON.stringify(result.body));
      return result.body.payload.listens.map((listen: { listened_at: number }) => (listen.listened_at - base) / 60);
    };
    assert.deepEqual(await times(''), [4, 3, 2, 1, 0]);
    assert.deepEqual(await times('?count=2'), [4, 3]);
    assert.deepEqual(await times(`?count=2&max_ts=${base + 180}`), [2, 1]);
    assert.deepEqual(await times(`?count=2&min_ts=${base + 60}`), [3, 2]);
    assert.deepEqual(await times('?count=0'), []);
    // Both together: a window, strictly between them, newest first, up to count.
    assert.deepEqual(await times(`?min_ts=${base + 60}&max_ts=${base + 240}`), [3, 2]);
    assert.deepEqual(await times(`?min_ts=${base - 1}&max_ts=${base + 241}&count=3`), [4, 3, 2]);
    assert.deepEqual(await times(`?min_ts=${base + 60}&max_ts=${base + 120}`), []);
    assert.deepEqual(await times(`?min_ts=${base + 240}&max_ts=${base}`), []);
    const page = await lb(app(), 'GET', `/user/${user.handle}/listens?count=1`);
    assert.equal(page.body.payload.latest_listen_ts, base + 240);
    assert.equal(page.body.payload.oldest_listen_ts, base);
    assert.equal(page.body.payload.count, 1);
    for (const query of ['?count=-1', '?max_ts=later', '?min_ts=1&max_ts=x']) {
      const bad = await lb(app(), 'GET', `/user/${user.handle}/listens${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal(bad.body.code, 400);
    }
  });

  test('listens from other sources are described from the catalog', async () => {
    const user = await lbUser(app(), 'lb-catalog');
    const mbid = '1bd9d5a0-2a59-4a4b-9b8e-0f0a8e2d0c11';
    await ingestListens(
      app().ctx,
      user.userId,
      [
        {
          artist: 'Massive Attack',
          title: 'Teardrop',
          album: 'Mezzanine',
          mbid,
          durationMs: 330000,
          trackNumber: 3,
          spotifyId: '67Hna13dNDkZvBpTXRIaOJ',
          listenedAt: new Date('2024-01-01T00:00:00Z'),
        },
      ],
      'api',
    );
    const result = await lb(app(), 'GET', `/user/${user.handle}/listens`);
    const [listen] = result.body.payload.listens;
    assert.deepEqual(listen.track_metadata, {
      artist_name: 'Massive Attack',
      track_name: 'Teardrop',
      release_name: 'Mezzanine',
      additional_info: {
        recording_mbid: mbid,
        release_artist_name: 'Massive Attack',
        duration_ms: 330000,
        tracknumber: 3,
        spotify_id: 'https://open.spotify.com/track/67Hna13dNDkZvBpTXRIaOJ',
        recording_msid: listen.recording_msid,
      },
    });
  });

  test('unknown users and routes are 404 in ListenBrainz’s shape', async () => {
    for (const path of ['/user/nobody/listens', '/user/nobody/listen-count', '/user/nobody/playing-now']) {
      const result = await lb(app(), 'GET', path);
      assert.equal(result.status, 404, path);
      assert.deepEqual(result.body, { code: 404, error: 'Cannot find user: nobody' });
    }
    const route = await lb(app(), 'GET', '/no-such-endpoint');
    assert.equal(route.status, 404);
    assert.equal(route.body.code, 404);
  });
});

describeWithApp(
  'ListenBrainz submissions with UNMATCHED_SCROBBLES=skip',
  (app) => {
    test('a listen of a song the catalog lacks is ignored with its reason; the others are stored', async () => {
      const user = await lbUser(app(), 'lb-strict');
      const { id: artistId } = await app().ctx.db.insertInto('artists').values({ name: 'Known', name_key: 'known' }).returning('id').executeTakeFirstOrThrow();
      await app().ctx.db.insertInto('tracks').values({ title: 'Song', title_key: 'song', artist: 'Known', artist_id: artistId }).execute();
      const listen = (artist: string, i: number) => ({ listened_at: 1_700_000_000 + i, track_metadata: { artist_name: artist, track_name: 'Song' } });
      const result = await submit(app(), user, { listen_type: 'import', payload: [listen('Unknown', 0), listen('Known', 1)] });
      assert.equal(result.status, 200);
      const { listens, ...counts } = result.body.payload;
      assert.deepEqual(counts, { submitted: 2, stored: 1, duplicate: 0, ignored: 1 });
      assert.deepEqual(listens[0], { index: 0, outcome: 'ignored', reason: 'no matching track in the catalog' });
      assert.equal(listens[1].outcome, 'stored');
      const playing = await submit(app(), user, {
        listen_type: 'playing_now',
        payload: [{ track_metadata: { artist_name: 'Nobody', track_name: 'Nothing' } }],
      });
      assert.deepEqual(playing.body.payload.listens, [{ index: 0, outcome: 'ignored', reason: 'no matching track in the catalog' }]);
    });
  },
  { unmatchedScrobbles: 'skip' },
);
