import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { describeWithApp, jsonRequest, startTestApp, oneBackend, type RequestOptions, type TestApp } from '../../app/testing.ts';
import { DEFAULT_RATE_LIMITS } from '../../toolkit/limits-config.ts';
import { createClientAccount, type ClientAccount } from '../lastfm/lastfm-testing.ts';

function mlj<T = any>(app: TestApp, method: string, path: string, options: RequestOptions = {}) {
  return jsonRequest<T>(`${app.scrobblerUrl}/apis/mlj_1${path}`, method, options);
}

const newscrobble = (app: TestApp, body: unknown, query = '') => mlj(app, 'POST', `/newscrobble${query}`, { body });

async function plays(app: TestApp, account: ClientAccount) {
  return app.ctx.db
    .selectFrom('scrobbles')
    .innerJoin('tracks', 'tracks.id', 'scrobbles.track_id')
    .innerJoin('artists', 'artists.id', 'tracks.artist_id')
    .leftJoin('albums', 'albums.id', 'tracks.album_id')
    .select([
      'scrobbles.source',
      'scrobbles.submitted',
      'scrobbles.listened_at',
      'scrobbles.played_ms',
      'tracks.title',
      'tracks.duration',
      'artists.name as artist',
      'albums.title as album',
    ])
    .where('scrobbles.user_id', '=', account.userId)
    .orderBy('scrobbles.listened_at')
    .execute();
}

async function playsCounted(app: TestApp, outcome: string): Promise<number> {
  const metric = await app.ctx.metrics.registry.getSingleMetric('earshot_plays_ingested_total')!.get();
  return metric.values.find(({ labels }) => labels.protocol === 'maloja' && labels.outcome === outcome)?.value ?? 0;
}

describeWithApp('Maloja API (mlj_1)', (app) => {
  let ada: ClientAccount;
  before(async () => {
    ada = await createClientAccount(app(), 'mlj-ada');
  });

  test("Web Scrobbler's submission (JSON: artist, title, time, album, albumartists, key) is stored from maloja", async () => {
    const body = { artist: 'Björk', title: 'Jóga', time: 1_700_000_000, album: 'Homogenic', albumartists: ['Björk'], key: ada.key };
    const result = await newscrobble(app(), body);
    assert.equal(result.status, 200);
    assert.deepEqual(result.body, { status: 'success', track: { artists: ['Björk'], title: 'Jóga' }, desc: 'Scrobbled Jóga by Björk' });
    const [play] = await plays(app(), ada);
    assert.equal(play!.source, 'maloja');
    assert.deepEqual([play!.artist, play!.title, play!.album], ['Björk', 'Jóga', 'Homogenic']);
    assert.equal(play!.listened_at.toISOString(), '2023-11-14T22:13:20.000Z');
    const { key: _key, ...record } = body;
    assert.deepEqual(play!.submitted, record, 'the record is kept without the key');
    assert.equal(await playsCounted(app(), 'stored'), 1);
  });

  test("multi-scrobbler's submission (JSON: artists[], length, duration with decimals) stores the length as the track's duration and duration as the played time", async () => {
    const body = { title: 'Around the World', artists: ['Daft Punk'], album: 'Homework', key: ada.key, time: 1_700_000_100, length: 429, duration: 401.52 };
    const result = await newscrobble(app(), body);
    assert.equal(result.status, 200);
    assert.deepEqual(result.body.track, { artists: ['Daft Punk'], title: 'Around the World' });
    const stored = (await plays(app(), ada)).find((play) => play.title === 'Around the World');
    assert.equal(stored!.duration, 429_000);
    assert.equal(stored!.played_ms, 401_520);
  });

  test("the same scrobble again: 200 with Maloja's scrobble_exists warning, nothing added, counted as a duplicate", async () => {
    const before = (await plays(app(), ada)).length;
    const result = await newscrobble(app(), { artist: 'Björk', title: 'Jóga', time: 1_700_000_000, key: ada.key });
    assert.equal(result.status, 200);
    assert.equal(result.body.status, 'success');
    assert.deepEqual(result.body.track, {});
    assert.equal(result.body.warnings[0].type, 'scrobble_exists');
    assert.match(result.body.warnings[0].desc, /The submitted scrobble was not added/);
    assert.equal((await plays(app(), ada)).length, before);
    assert.equal(await playsCounted(app(), 'duplicate'), 1);
  });

  test('a form body with repeated artist fields and the key in the query; several artists are credited together', async () => {
    const form = new URLSearchParams([
      ['artist', 'Simon'],
      ['artist', 'Garfunkel'],
      ['title', 'The Boxer'],
      ['time', '1700000200'],
    ]);
    const result = await mlj(app(), 'POST', `/newscrobble?key=${ada.key}`, {
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(result.status, 200);
    assert.deepEqual(result.body.track, { artists: ['Simon', 'Garfunkel'], title: 'The Boxer' });
    assert.equal(result.body.desc, 'Scrobbled The Boxer by Simon, Garfunkel');
    const stored = (await plays(app(), ada)).find((play) => play.title === 'The Boxer');
    assert.deepEqual(stored!.submitted, { artist: ['Simon', 'Garfunkel'], title: 'The Boxer', time: '1700000200' });
  });

  test('without time the scrobble is now; unknown fields are stored and named in warnings', async () => {
    const sent = Math.floor(Date.now() / 1000) * 1000;
    const result = await newscrobble(app(), { artist: 'Air', title: 'La Femme d’Argent', apikey: ada.key, player: 'mpv' });
    const answered = Date.now();
    assert.equal(result.status, 200);
    assert.deepEqual(result.body.warnings, [
      { type: 'invalid_keyword_ignored', value: 'player', desc: 'This key was not recognized by the server and has been discarded.' },
    ]);
    const stored = (await plays(app(), ada)).find((play) => play.artist === 'Air');
    const at = stored!.listened_at.getTime();
    assert.ok(at >= sent && at <= answered, 'stamped with the whole second it arrived in');
  });

  test('a wrong, missing or malformed key: 403 authentication_fail, before the fields are looked at', async () => {
    const refused = { status: 'failure', error: { type: 'authentication_fail', value: null, desc: 'Invalid or missing authentication' } };
    for (const key of ['0'.repeat(32), undefined, 'not-a-key']) {
      const result = await newscrobble(app(), { artist: 'Air', title: 'Playground Love', key });
      assert.deepEqual([result.status, result.body], [403, refused]);
    }
    assert.deepEqual((await newscrobble(app(), {})).body, refused);
  });

  test('missing artist or title: 400 missing_scrobble_data naming them as Maloja does', async () => {
    const noTitle = await newscrobble(app(), { artist: 'Air', key: ada.key });
    assert.equal(noTitle.status, 400);
    assert.deepEqual(noTitle.body, {
      status: 'failure',
      error: { type: 'missing_scrobble_data', value: ['track_title'], desc: 'The scrobble is missing needed parameters.' },
    });
    const neither = await newscrobble(app(), { artists: [' '], title: '', key: ada.key });
    assert.deepEqual(neither.body.error.value, ['track_artists', 'track_title']);
  });

  test("bad values and bodies: 400 in Maloja's shape, never a 500", async () => {
    const cases: [unknown, string][] = [
      [{ artist: 'Air', title: 'Alone in Kyoto', time: 'yesterday', key: ada.key }, 'invalid_scrobble_data'],
      [{ artist: 'Air', title: 'Alone in Kyoto', time: 4_102_444_800, key: ada.key }, 'invalid_scrobble_data'],
      [{ artist: 42, title: 'Alone in Kyoto', key: ada.key }, 'invalid_scrobble_data'],
      [{ artist: 'Air', title: 'x'.repeat(2000), key: ada.key }, 'invalid_scrobble_data'],
    ];
    for (const [body, type] of cases) {
      const result = await newscrobble(app(), body);
      assert.equal(result.status, 400, JSON.stringify(body));
      assert.equal(result.body.status, 'failure');
      assert.equal(result.body.error.type, type);
    }
    const notJson = await mlj(app(), 'POST', '/newscrobble', { body: '{"artist":', headers: { 'content-type': 'application/json' } });
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.error.type, 'malformed_request');
    const list = await mlj(app(), 'POST', `/newscrobble?key=${ada.key}`, { body: [1] });
    assert.deepEqual([list.status, list.body.error.type], [400, 'malformed_request']);
  });

  test('test: 200 ok with a good key or none (a ping, as Maloja answers), 403 with a wrong one', async () => {
    assert.deepEqual(await mlj(app(), 'GET', `/test?key=${ada.key}`).then((r) => [r.status, r.body]), [200, { status: 'ok' }]);
    assert.deepEqual(await mlj(app(), 'GET', '/test').then((r) => [r.status, r.body]), [200, { status: 'ok' }]);
    const wrong = await mlj(app(), 'GET', `/test?key=${'f'.repeat(32)}`);
    assert.deepEqual([wrong.status, wrong.body], [403, { status: 'error', error: 'Wrong API key' }]);
  });

  test('serverinfo: a Maloja 3.2 version (multi-scrobbler requires 3.x) and a healthy database', async () => {
    const result = await mlj(app(), 'GET', '/serverinfo');
    assert.equal(result.status, 200);
    assert.deepEqual(result.body.version, result.body.versionstring.split('.'));
    assert.match(result.body.versionstring, /^3\.2\.\d+$/);
    assert.equal(typeof result.body.name, 'string');
    assert.deepEqual(result.body.db_status, { healthy: true, rebuildinprogress: false, complete: true });
  });

  test("scrobbles: the key owner's, newest first, by day window and page, as multi-scrobbler reads them to spot duplicates", async () => {
    const page = await mlj(app(), 'GET', `/scrobbles?key=${ada.key}&from=2023/11/14&until=2023/11/14&perpage=2`);
    assert.equal(page.status, 200);
    assert.equal(page.body.status, 'ok');
    assert.deepEqual(
      page.body.list.map((scrobble: { time: number; track: { title: string } }) => [scrobble.time, scrobble.track.title]),
      [
        [1_700_000_200, 'The Boxer'],
        [1_700_000_100, 'Around the World'],
      ],
    );
    assert.deepEqual(page.body.list[1].track, {
      artists: ['Daft Punk'],
      title: 'Around the World',
      album: { albumtitle: 'Homework', artists: [] },
      length: 429,
    });
    assert.notEqual(page.body.pagination.next_page, null);
    const last = await mlj(app(), 'GET', `/scrobbles?key=${ada.key}&from=2023/11/14&until=2023/11/14&perpage=2&page=1`);
    assert.deepEqual(
      last.body.list.map((scrobble: { track: { title: string } }) => scrobble.track.title),
      ['Jóga'],
    );
    assert.deepEqual([last.body.pagination.next_page, last.body.pagination.page], [null, 1]);
  });

  test('scrobbles without a key name no one: an empty list; a wrong key is 403, a bad day 400', async () => {
    const anonymous = await mlj(app(), 'GET', '/scrobbles?from=2023/11/14');
    assert.deepEqual(
      [anonymous.status, anonymous.body],
      [200, { status: 'ok', list: [], pagination: { page: 0, perpage: 100, next_page: null, prev_page: null } }],
    );
    assert.equal((await mlj(app(), 'GET', `/scrobbles?key=${'e'.repeat(32)}`)).status, 403);
    const badDay = await mlj(app(), 'GET', `/scrobbles?key=${ada.key}&from=2023/02/30`);
    assert.deepEqual([badDay.status, badDay.body.error.type], [400, 'malformed_request']);
  });

  test('an unknown path or method under /apis/mlj_1 is a Maloja-shaped 404', async () => {
    const result = await mlj(app(), 'GET', '/newscrobble');
    assert.equal(result.status, 404);
    assert.equal(result.body.status, 'error');
    assert.equal(result.body.error.type, 'not_found');
  });

  test("delete_scrobble: the key owner's plays at that second go, whatever the song; another account's stay; a time without one is a success too", async () => {
    const [eve, fay] = [await createClientAccount(app(), 'mlj-del-eve'), await createClientAccount(app(), 'mlj-del-fay')];
    const at = 1_700_100_000;
    for (const [account, title, time] of [
      [eve, 'Cherry Blossom Girl', at],
      [eve, 'Remember', at],
      [eve, 'Kelly Watch the Stars', at + 60],
      [fay, 'Cherry Blossom Girl', at],
    ] as const) {
      assert.equal((await newscrobble(app(), { artist: 'Air', title, time, key: account.key })).status, 200);
    }
    const deleted = await mlj(app(), 'POST', '/delete_scrobble', { body: { key: eve.key, timestamp: at } });
    assert.deepEqual([deleted.status, deleted.body], [200, { status: 'success', desc: 'Scrobble was deleted!' }]);
    assert.deepEqual(
      (await plays(app(), eve)).map((play) => play.title),
      ['Kelly Watch the Stars'],
    );
    assert.equal((await plays(app(), fay)).length, 1, "another account's play at that second stays");
    const listed = await mlj(app(), 'GET', `/scrobbles?key=${eve.key}`);
    assert.deepEqual(
      listed.body.list.map((scrobble: { time: number }) => scrobble.time),
      [at + 60],
    );
    // As a form, with the key in the query; nothing at that time: Maloja's success all the same.
    const nothing = await mlj(app(), 'POST', `/delete_scrobble?key=${eve.key}`, {
      body: `timestamp=${at + 1}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.deepEqual([nothing.status, nothing.body.status], [200, 'success']);
    assert.equal((await plays(app(), eve)).length, 1);
  });

  test("delete_scrobble: a wrong or missing key is 403 authentication_fail, a missing or malformed timestamp 400 malformed_request, in Maloja's shape", async () => {
    const eve = await createClientAccount(app(), 'mlj-del-bad');
    assert.equal((await newscrobble(app(), { artist: 'Air', title: 'Venus', time: 1_700_200_000, key: eve.key })).status, 200);
    const refused = { status: 'failure', error: { type: 'authentication_fail', value: null, desc: 'Invalid or missing authentication' } };
    for (const key of ['0'.repeat(32), undefined]) {
      const result = await mlj(app(), 'POST', '/delete_scrobble', { body: { key, timestamp: 1_700_200_000 } });
      assert.deepEqual([result.status, result.body], [403, refused]);
    }
    for (const timestamp of [undefined, 'yesterday', '-5', 1.5, '', [1_700_200_000, 1], '1'.repeat(13)]) {
      const result = await mlj(app(), 'POST', '/delete_scrobble', { body: { key: eve.key, timestamp } });
      assert.equal(result.status, 400, JSON.stringify(timestamp));
      assert.deepEqual([result.body.status, result.body.error.type], ['error', 'malformed_request']);
    }
    assert.equal((await plays(app(), eve)).length, 1, 'nothing was deleted');
  });
});

describe("Maloja submissions spend the account's submission budget", () => {
  const backend = oneBackend();
  let app: TestApp;
  let ada: ClientAccount;
  let bob: ClientAccount;
  before(async () => {
    app = await startTestApp(backend, { rateLimits: { ...DEFAULT_RATE_LIMITS, redisUrl: undefined, submissions: 2 } });
    [ada, bob] = [await createClientAccount(app, 'mlj-rl-ada'), await createClientAccount(app, 'mlj-rl-bob')];
  });
  after(() => app.close());

  test("over it, a 429 in Maloja's shape with Retry-After; another account is not affected; the key in the query counts the same", async () => {
    const scrobble = (key: string, time: number, inQuery = false) =>
      newscrobble(app, { artist: 'Air', title: 'Sexy Boy', time, ...(inQuery ? {} : { key }) }, inQuery ? `?key=${key}` : '');
    assert.equal((await scrobble(ada.key, 1_700_000_000)).status, 200);
    assert.equal((await scrobble(ada.key, 1_700_000_001, true)).status, 200);
    const refused = await scrobble(ada.key, 1_700_000_002);
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal(refused.body.status, 'failure');
    assert.equal(refused.body.error.type, 'rate_limit_exceeded');
    assert.equal((await scrobble(bob.key, 1_700_000_003)).status, 200);
    assert.equal((await mlj(app, 'GET', '/serverinfo')).status, 200, 'reads spend the read budget, not this one');
  });
});

describe('a Maloja scrobble the catalog turns away (UNMATCHED_SCROBBLES=skip)', () => {
  const backend = oneBackend();
  let app: TestApp;
  before(async () => {
    app = await startTestApp(backend, { unmatchedScrobbles: 'skip' });
  });
  after(() => app.close());

  test("answers 200 with a warning saying it was not added, as clients read Maloja's own", async () => {
    const ada = await createClientAccount(app, 'mlj-skip-ada');
    const result = await newscrobble(app, { artist: 'Nobody Known', title: 'Nothing Matched', key: ada.key });
    assert.equal(result.status, 200);
    assert.deepEqual(result.body.track, {});
    assert.equal(result.body.warnings[0].type, 'scrobble_ignored');
    assert.match(result.body.warnings[0].desc, /The submitted scrobble was not added: no matching track in the catalog/);
    assert.equal((await plays(app, ada)).length, 0);
    assert.equal(await playsCounted(app, 'ignored'), 1);
  });
});
