import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { randomText, seededRandom, type Utf8Width } from '../../toolkit/fuzz-testing.ts';
import { describeWithApp, jsonRequest, type HttpResult, type TestApp } from '../../app/testing.ts';
import { createClientAccount, lastfmCall, type ClientAccount } from '../../adapters/lastfm/lastfm-testing.ts';
import { MAX_GENRE_LENGTH, MAX_NAME_LENGTH, MAX_TAG_LENGTH, MAX_TAGS } from '../catalog/field-rules.ts';

/**
 * Poison metadata through every write path, on every backend: a value within
 * the limits is stored, anything else is the protocol's own 400-class answer,
 * never a 5xx (which clients retry forever), and a refused request writes nothing.
 */

/** What a poison case says about a track; each path sends what its protocol can carry. */
interface Track {
  artist: string;
  title: string;
  album?: string;
  trackNumber?: unknown;
  discNumber?: unknown;
  durationSeconds?: unknown;
  genre?: string;
  tags?: unknown;
  /** Unix seconds, or a poison value for the time field. */
  listenedAt?: unknown;
  /** Extra ListenBrainz additional_info (JSON paths only). */
  info?: Record<string, unknown>;
}

interface PoisonCase {
  name: string;
  track: (random: () => number) => Track;
  expect: 'stored' | 'refused';
  /** Paths the case applies to (a form cannot carry a lone surrogate or nested JSON); all when absent. */
  only?: readonly PathName[];
}

type PathName =
  | 'xrpc createScrobble'
  | 'listenbrainz single'
  | 'listenbrainz import'
  | 'listenbrainz playing_now'
  | 'lastfm track.scrobble'
  | 'lastfm track.updateNowPlaying'
  | 'lastfm track.love'
  | 'audioscrobbler np'
  | 'audioscrobbler submission';

const JSON_PATHS: PathName[] = ['xrpc createScrobble', 'listenbrainz single', 'listenbrainz import', 'listenbrainz playing_now'];
const LISTENBRAINZ: PathName[] = ['listenbrainz single', 'listenbrainz import', 'listenbrainz playing_now'];
const TIMED: PathName[] = ['listenbrainz single', 'listenbrainz import', 'lastfm track.scrobble', 'audioscrobbler submission'];

const WIDTHS: Utf8Width[] = [1, 2, 3, 4];
const name = (random: () => number, width: Utf8Width, length = 12) => randomText(random, length, width);
const plain = (random: () => number): Track => ({ artist: name(random, 1), title: name(random, 1) });
/** JSON text sent as is: deeper than JSON.stringify (which recurses) can write. */
class RawJson {
  constructor(readonly text: string) {}
}
const nested = (depth: number) => new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`);
const PLACEHOLDER = '@@raw-json@@';

/** JSON.stringify, with RawJson values spliced in as their text. */
function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item) => (item instanceof RawJson ? (raws.push(item.text), PLACEHOLDER) : item));
  return raws.reduce((result, raw) => result.replace(`"${PLACEHOLDER}"`, () => raw), text);
}

const CASES: PoisonCase[] = [
  ...WIDTHS.map(
    (width): PoisonCase => ({
      name: `${MAX_NAME_LENGTH} characters of ${width} bytes in artist, title${width < 4 ? ' and album' : ''}`,
      // ListenBrainz's own 10,240-byte listen limit leaves room for three 3-byte names, two 4-byte ones.
      track: (random) => ({
        artist: name(random, width, MAX_NAME_LENGTH),
        title: name(random, width, MAX_NAME_LENGTH),
        ...(width < 4 && { album: name(random, width, MAX_NAME_LENGTH) }),
      }),
      expect: 'stored',
    }),
  ),
  ...WIDTHS.map(
    (width): PoisonCase => ({
      name: `${MAX_NAME_LENGTH + 1} characters of ${width} bytes in the artist`,
      track: (random) => ({ ...plain(random), artist: name(random, width, MAX_NAME_LENGTH + 1) }),
      expect: 'refused',
    }),
  ),
  ...WIDTHS.map(
    (width): PoisonCase => ({
      name: `${MAX_NAME_LENGTH + 1} characters of ${width} bytes in the album`,
      track: (random) => ({ ...plain(random), album: name(random, width, MAX_NAME_LENGTH + 1) }),
      expect: 'refused',
    }),
  ),
  { name: 'a 100,000-character artist', track: (random) => ({ ...plain(random), artist: name(random, 3, 100_000) }), expect: 'refused' },
  { name: 'NUL in the title', track: (random) => ({ ...plain(random), title: `a\u0000b${name(random, 1)}` }), expect: 'refused' },
  {
    name: 'a lone surrogate in the artist',
    track: (random) => ({ ...plain(random), artist: `${name(random, 1)}\ud800` }),
    expect: 'refused',
    only: JSON_PATHS,
  },
  { name: 'a lone surrogate in the album', track: (random) => ({ ...plain(random), album: `\udfff${name(random, 1)}` }), expect: 'refused', only: JSON_PATHS },
  {
    name: 'a lone surrogate in an additional_info value',
    track: (random) => ({ ...plain(random), info: { media_player: 'x\ud83d' } }),
    expect: 'refused',
    only: LISTENBRAINZ,
  },
  {
    name: 'a lone surrogate in an additional_info key',
    track: (random) => ({ ...plain(random), info: { 'k\udc00': 1 } }),
    expect: 'refused',
    only: LISTENBRAINZ,
  },
  { name: 'track number 2^31', track: (random) => ({ ...plain(random), trackNumber: 2 ** 31 }), expect: 'refused' },
  { name: 'disc number 2^31', track: (random) => ({ ...plain(random), discNumber: 2 ** 31 }), expect: 'refused', only: LISTENBRAINZ },
  { name: 'track number 1e308', track: (random) => ({ ...plain(random), trackNumber: 1e308 }), expect: 'refused' },
  { name: 'duration 1e308', track: (random) => ({ ...plain(random), durationSeconds: 1e308 }), expect: 'refused' },
  { name: 'listened_at 1e308', track: (random) => ({ ...plain(random), listenedAt: 1e308 }), expect: 'refused', only: TIMED },
  { name: 'listened_at -1e308', track: (random) => ({ ...plain(random), listenedAt: -1e308 }), expect: 'refused', only: TIMED },
  {
    name: '4,000 levels of nesting in additional_info',
    track: (random) => ({ ...plain(random), info: { deep: nested(4000) } }),
    expect: 'refused',
    only: LISTENBRAINZ,
  },
  {
    name: '200,000 levels of nesting in additional_info',
    track: (random) => ({ ...plain(random), info: { deep: nested(200_000) } }),
    expect: 'refused',
    only: LISTENBRAINZ,
  },
  {
    name: `${MAX_TAGS} tags of ${MAX_TAG_LENGTH} 4-byte characters`,
    track: (random) => ({ ...plain(random), tags: Array.from({ length: MAX_TAGS }, () => name(random, 4, MAX_TAG_LENGTH)) }),
    expect: 'refused', // 50 × 256 bytes exceed ListenBrainz's 10,240 bytes a listen
    only: ['listenbrainz single'],
  },
  {
    name: `${MAX_TAGS} tags of ${MAX_TAG_LENGTH} 4-byte characters (API)`,
    track: (random) => ({ ...plain(random), tags: Array.from({ length: MAX_TAGS }, () => name(random, 4, MAX_TAG_LENGTH)) }),
    expect: 'stored',
    only: ['xrpc createScrobble'],
  },
  {
    name: `a tag of ${MAX_TAG_LENGTH} 4-byte characters`,
    track: (random) => ({ ...plain(random), tags: [name(random, 4, MAX_TAG_LENGTH)] }),
    expect: 'stored',
    only: ['xrpc createScrobble', 'listenbrainz single'],
  },
  {
    name: `a tag of ${MAX_TAG_LENGTH + 1} characters`,
    track: (random) => ({ ...plain(random), tags: [name(random, 1, MAX_TAG_LENGTH + 1)] }),
    expect: 'refused',
    only: ['xrpc createScrobble', 'listenbrainz single'],
  },
  {
    name: `${MAX_TAGS + 1} tags`,
    track: (random) => ({ ...plain(random), tags: Array.from({ length: MAX_TAGS + 1 }, () => name(random, 1, 3)) }),
    expect: 'refused',
    only: ['xrpc createScrobble', 'listenbrainz single'],
  },
  {
    name: `a genre of ${MAX_GENRE_LENGTH} 3-byte characters`,
    track: (random) => ({ ...plain(random), genre: name(random, 3, MAX_GENRE_LENGTH) }),
    expect: 'stored',
    only: ['xrpc createScrobble'],
  },
  {
    name: `a genre of ${MAX_GENRE_LENGTH + 1} characters`,
    track: (random) => ({ ...plain(random), genre: name(random, 1, MAX_GENRE_LENGTH + 1) }),
    expect: 'refused',
    only: ['xrpc createScrobble'],
  },
];

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A protocol's request for a track, and how it says "refused". */
interface Path {
  send(track: Track): Promise<HttpResult>;
  refusedShape(result: HttpResult): boolean;
  acceptedShape(result: HttpResult): boolean;
}

function paths(app: TestApp, client: ClientAccount, sessionKey: () => string, audioscrobblerSession: () => string): Record<PathName, Path> {
  const time = (track: Track) => track.listenedAt ?? nowSeconds() - 600;
  const lb = (body: unknown) =>
    jsonRequest(`${app.scrobblerUrl}/1/submit-listens`, 'POST', {
      body: jsonText(body),
      headers: { authorization: `Token ${client.key}`, 'content-type': 'application/json' },
    });
  const trackMetadata = (track: Track) => ({
    artist_name: track.artist,
    track_name: track.title,
    ...(track.album !== undefined && { release_name: track.album }),
    additional_info: {
      ...(track.trackNumber !== undefined && { tracknumber: track.trackNumber }),
      ...(track.discNumber !== undefined && { discnumber: track.discNumber }),
      ...(track.durationSeconds !== undefined && { duration: track.durationSeconds }),
      ...(track.tags !== undefined && { tags: track.tags }),
      ...track.info,
    },
  });
  const lbRefused = (result: HttpResult) => result.status === 400 && result.body.code === 400 && typeof result.body.error === 'string';
  const lbAccepted = (result: HttpResult) => result.status === 200 && result.body.status === 'ok';
  const lastfm = (params: Record<string, string>) =>
    lastfmCall(app, { api_key: client.key, sk: sessionKey(), format: 'json', ...params }, { secret: client.sharedSecret });
  const lastfmFields = (track: Track, suffix = '') => ({
    [`artist${suffix}`]: track.artist,
    [`track${suffix}`]: track.title,
    ...(track.album !== undefined && { [`album${suffix}`]: track.album }),
    ...(track.trackNumber !== undefined && { [`trackNumber${suffix}`]: String(track.trackNumber) }),
    ...(track.durationSeconds !== undefined && { [`duration${suffix}`]: String(track.durationSeconds) }),
  });
  const lastfmRefused = (result: HttpResult) => result.status === 400 && result.body.error === 6;
  const audioscrobbler = (path: string, params: Record<string, string>) =>
    jsonRequest<string>(`${app.scrobblerUrl}${path}`, 'POST', {
      body: new URLSearchParams({ s: audioscrobblerSession(), ...params }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const audioscrobblerFields = (track: Track, suffix = '') => ({
    [`a${suffix}`]: track.artist,
    [`t${suffix}`]: track.title,
    ...(track.album !== undefined && { [`b${suffix}`]: track.album }),
    ...(track.trackNumber !== undefined && { [`n${suffix}`]: String(track.trackNumber) }),
    ...(track.durationSeconds !== undefined && { [`l${suffix}`]: String(track.durationSeconds) }),
  });
  const audioscrobblerRefused = (result: HttpResult) => result.status === 400 && /^FAILED \S/.test(result.body);
  const audioscrobblerAccepted = (result: HttpResult) => result.status === 200 && result.body === 'OK\n';
  return {
    'xrpc createScrobble': {
      send: (track) =>
        app.procedure(
          'app.svc.scrobble.createScrobble',
          {
            artist: track.artist,
            title: track.title,
            album: track.album,
            trackNumber: track.trackNumber,
            duration: typeof track.durationSeconds === 'number' ? track.durationSeconds * 1000 : undefined,
            tags: track.tags,
            genre: track.genre,
            timestamp: new Date(Number(time(track)) * 1000).toISOString(),
          },
          client.token,
        ),
      // A body over the API's 64 KiB limit is refused before it is parsed: 413 PayloadTooLarge.
      refusedShape: (result) =>
        (result.status === 400 && result.body.error === 'InvalidRequest') || (result.status === 413 && result.body.error === 'PayloadTooLarge'),
      acceptedShape: (result) => result.status === 200 && result.body.status === 'stored',
    },
    'listenbrainz single': {
      send: (track) => lb({ listen_type: 'single', payload: [{ listened_at: time(track), track_metadata: trackMetadata(track) }] }),
      refusedShape: lbRefused,
      acceptedShape: lbAccepted,
    },
    'listenbrainz import': {
      // A good listen first: one bad listen must reject the whole request.
      send: (track) =>
        lb({
          listen_type: 'import',
          payload: [
            { listened_at: nowSeconds() - 7200, track_metadata: { artist_name: `${track.artist.slice(0, 8)} good`, track_name: 'good' } },
            { listened_at: time(track), track_metadata: trackMetadata(track) },
          ],
        }),
      refusedShape: lbRefused,
      acceptedShape: lbAccepted,
    },
    'listenbrainz playing_now': {
      send: (track) => lb({ listen_type: 'playing_now', payload: [{ track_metadata: trackMetadata(track) }] }),
      refusedShape: lbRefused,
      acceptedShape: lbAccepted,
    },
    'lastfm track.scrobble': {
      send: (track) => lastfm({ method: 'track.scrobble', ...lastfmFields(track, '[0]'), 'timestamp[0]': String(time(track)) }),
      refusedShape: lastfmRefused,
      acceptedShape: (result) => result.status === 200 && result.body.scrobbles?.['@attr']?.accepted === 1,
    },
    'lastfm track.updateNowPlaying': {
      send: (track) => lastfm({ method: 'track.updateNowPlaying', ...lastfmFields(track) }),
      refusedShape: lastfmRefused,
      acceptedShape: (result) => result.status === 200 && result.body.nowplaying?.ignoredMessage?.code === '0',
    },
    'lastfm track.love': {
      send: (track) => lastfm({ method: 'track.love', ...lastfmFields(track) }),
      refusedShape: lastfmRefused,
      acceptedShape: (result) => result.status === 200,
    },
    'audioscrobbler np': {
      send: (track) => audioscrobbler('/np_1.2', audioscrobblerFields(track)),
      refusedShape: audioscrobblerRefused,
      acceptedShape: audioscrobblerAccepted,
    },
    'audioscrobbler submission': {
      send: (track) => audioscrobbler('/protocol_1.2', { ...audioscrobblerFields(track, '[0]'), 'i[0]': String(time(track)), 'o[0]': 'P' }),
      refusedShape: audioscrobblerRefused,
      acceptedShape: audioscrobblerAccepted,
    },
  };
}

/** Row counts of everything a write path may touch. */
async function footprint(app: TestApp): Promise<Record<string, number>> {
  const { rows } = await sql<Record<string, number>>`select
    (select count(*) from scrobbles)::int as scrobbles, (select count(*) from tracks)::int as tracks,
    (select count(*) from artists)::int as artists, (select count(*) from albums)::int as albums,
    (select count(*) from now_playing)::int as now_playing, (select count(*) from stars)::int as stars`.execute(app.ctx.db);
  return rows[0]!;
}

/** The catalog row a stored submission left: its track with the names as sent. */
async function storedTrack(app: TestApp, track: Track) {
  return app.ctx.db
    .selectFrom('tracks')
    .select(['title', 'artist', 'album', 'genre'])
    .where('title', '=', track.title)
    .where('artist', '=', track.artist)
    .executeTakeFirst();
}

const summary = (result: HttpResult) => `${result.status} ${JSON.stringify(result.body).slice(0, 200)}`;

describeWithApp('poison metadata through every write path', (app) => {
  let client: ClientAccount;
  let sessionKey = '';
  let audioscrobblerSession = '';

  before(async () => {
    client = await createClientAccount(app(), 'poison');
    const session = await lastfmCall(
      app(),
      { method: 'auth.getMobileSession', username: client.handle, password: client.password, api_key: client.key, format: 'json' },
      { secret: client.sharedSecret },
    );
    sessionKey = session.body.session.key;
    const t = String(nowSeconds());
    const handshake = await jsonRequest<string>(
      `${app().scrobblerUrl}/?${new URLSearchParams({ hs: 'true', p: '1.2', c: 'tst', v: '1.0', u: client.handle, t, a: md5(md5(client.key) + t) })}`,
      'GET',
    );
    audioscrobblerSession = handshake.body.split('\n')[1]!;
  });

  for (const pathName of Object.keys(
    paths(
      {} as TestApp,
      {} as ClientAccount,
      () => '',
      () => '',
    ),
  ) as PathName[]) {
    test(`${pathName}: within the limits is stored, beyond them a 400-class answer in the protocol's shape with nothing written`, async () => {
      const random = seededRandom([...pathName].reduce((sum, char) => sum * 31 + char.charCodeAt(0), 7) >>> 0);
      const path = paths(
        app(),
        client,
        () => sessionKey,
        () => audioscrobblerSession,
      )[pathName];
      const failures: string[] = [];
      for (const poison of CASES.filter((candidate) => !candidate.only || candidate.only.includes(pathName))) {
        const track = poison.track(random);
        const before = await footprint(app());
        const result = await path.send(track);
        const after = await footprint(app());
        if (result.status >= 500) failures.push(`${poison.name}: a retryable ${summary(result)}`);
        else if (poison.expect === 'refused') {
          if (!path.refusedShape(result)) failures.push(`${poison.name}: expected a refusal in the protocol's shape, got ${summary(result)}`);
          if (JSON.stringify(after) !== JSON.stringify(before)) failures.push(`${poison.name}: refused but wrote ${JSON.stringify({ before, after })}`);
        } else {
          if (!path.acceptedShape(result)) failures.push(`${poison.name}: expected it stored, got ${summary(result)}`);
          else if (!(await storedTrack(app(), track))) failures.push(`${poison.name}: accepted, but no catalog track holds the names as sent`);
        }
      }
      assert.deepEqual(failures, []);
    });
  }

  test('bad JSON bodies on the ListenBrainz host are 400 {code, error}, never a 500', async () => {
    const bodies = [
      '{"listen_type": "single", "payload": [',
      '{"listen_type": "single", "payload": "\\x"}',
      '{"listen_type": "single", "payload": [{"listened_at": 1e999999}]}',
      `{"listen_type": "single", "payload": ${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`,
      `{"listen_type": "import", "payload": [${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}]}`,
      '"\\ud800"',
      '',
    ];
    const failures: string[] = [];
    for (const body of bodies) {
      const result = await jsonRequest<any>(`${app().scrobblerUrl}/1/submit-listens`, 'POST', {
        body,
        headers: { authorization: `Token ${client.key}`, 'content-type': 'application/json' },
      });
      if (!(result.status === 400 && result.body.code === 400 && typeof result.body.error === 'string'))
        failures.push(`${body.slice(0, 60)}: ${summary(result)}`);
    }
    assert.deepEqual(failures, []);
  });

  test('bad or hostile JSON anywhere else on the scrobbler host is never a 5xx', async () => {
    const failures: string[] = [];
    for (const path of ['/', '/2.0/', '/np_1.2', '/protocol_1.2', '/nowhere', '/1/nowhere']) {
      for (const body of ['{"a": [', `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`, '{"a": "\\x"}', '{"a": 1e999999}']) {
        const result = await jsonRequest<any>(`${app().scrobblerUrl}${path}`, 'POST', { body, headers: { 'content-type': 'application/json' } });
        if (result.status >= 500) failures.push(`${path} ${body.slice(0, 20)}: ${summary(result)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('importListens stores names at the limit and counts poison as ignored; a body too deep to walk is a 400', async () => {
    const random = seededRandom(42);
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const listen = (fields: Record<string, unknown>) => ({ artist: name(random, 1), title: name(random, 1), listenedAt: at, submitted: {}, ...fields });
    const batch = (fingerprint: string, listens: unknown[]) =>
      app().request('POST', '/xrpc/app.svc.scrobble.importListens', {
        token: client.token,
        body: jsonText({ fingerprint: fingerprint.repeat(64), format: 'listenbrainz', from: 0, records: listens.length, listens, complete: true }),
      });
    const listens = [
      ...WIDTHS.map((width) =>
        listen({ artist: name(random, width, MAX_NAME_LENGTH), title: name(random, width, MAX_NAME_LENGTH), album: name(random, width, MAX_NAME_LENGTH) }),
      ),
      listen({ artist: name(random, 3, MAX_NAME_LENGTH + 1) }),
      listen({ title: 'x\ud800' }),
      listen({ submitted: { 'k\udc00': 1 } }),
      listen({ submitted: { deep: nested(40) } }),
    ];
    const result = await batch('a', listens);
    assert.equal(result.status, 200, summary(result));
    assert.deepEqual([result.body.stored, result.body.ignored], [WIDTHS.length, 4], summary(result));

    const before = await footprint(app());
    const deep = await batch('b', [listen({}), listen({ submitted: { deep: nested(200_000) } })]);
    assert.deepEqual([deep.status, deep.body.error], [400, 'InvalidRequest'], summary(deep));
    assert.deepEqual(await footprint(app()), before);
  });

  test('bounded keys still match: the same long names twice are one catalog track', async () => {
    const random = seededRandom(99);
    const track = { artist: name(random, 3, MAX_NAME_LENGTH), title: name(random, 3, MAX_NAME_LENGTH), album: name(random, 3, MAX_NAME_LENGTH) };
    const send = paths(
      app(),
      client,
      () => sessionKey,
      () => audioscrobblerSession,
    )['xrpc createScrobble'].send;
    const first = await send({ ...track, listenedAt: nowSeconds() - 100 });
    const second = await send({ ...track, listenedAt: nowSeconds() - 50 });
    assert.equal(first.status, 200, summary(first));
    assert.equal(second.body.trackId, first.body.trackId);
    const other = await send({ ...track, title: `${track.title.slice(0, -1)}x`, listenedAt: nowSeconds() - 10 });
    assert.notEqual(other.body.trackId, first.body.trackId, 'names differing only past the key prefix are different tracks');
  });
});
