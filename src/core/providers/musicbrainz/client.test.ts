import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ProviderError } from '../errors.ts';
import { recordingClock } from '../fake/clock-testing.ts';
import { metadataUserAgent, RequestSpacer } from '../metadata-fetch.ts';
import { createMusicBrainzClient, type ResponseCache } from './client.ts';
import { startFakeMusicBrainz, type FakeMusicBrainz } from './fake-testing.ts';

const ARTIST = { mbid: '5b11f4ce-a62d-471e-81fc-a69a8278c7da', name: 'Nirvana' };
const RECORDING = '5fb524f1-8cc8-4c04-a921-e34c0a911ea7';
const RELEASE = 'b52a8f31-b5ab-34e9-92f4-f5b7110220f0';

describe('MusicBrainz client against the fake', () => {
  let fake: FakeMusicBrainz;
  before(async () => {
    fake = await startFakeMusicBrainz({
      recordings: [
        {
          mbid: RECORDING,
          title: 'Smells Like Teen Spirit',
          artist: ARTIST,
          releases: [{ mbid: RELEASE, title: 'Nevermind' }],
          genres: ['grunge', 'alternative rock'],
          tags: ['seen live'],
        },
      ],
      releases: [{ mbid: RELEASE, title: 'Nevermind', artist: ARTIST, tags: ['grunge'] }],
      artists: [{ mbid: ARTIST.mbid, title: ARTIST.name, genres: ['grunge', 'rock', 'punk'] }],
    });
  });
  after(() => fake.close());

  const client = (clock = recordingClock(), cache?: ResponseCache) =>
    createMusicBrainzClient({ baseUrl: fake.url, userAgent: metadataUserAgent('mailto:admin@example.org'), spacer: new RequestSpacer(1_000, clock), cache });

  test('a search answers scored matches; a lookup the entity with its artists, releases and genres (tags when it has no genres)', async () => {
    const musicbrainz = client();
    const [match] = await musicbrainz.search('recording', 'Nirvana', 'Smells Like Teen Spirit');
    assert.equal(match?.mbid, RECORDING);
    assert.equal(match?.score, 100);
    const recording = await musicbrainz.lookup('recording', RECORDING);
    assert.deepEqual(recording?.artists, [ARTIST]);
    assert.deepEqual(recording?.releases, [{ mbid: RELEASE, title: 'Nevermind' }]);
    assert.deepEqual(
      recording?.genres.map((genre) => genre.name),
      ['grunge', 'alternative rock'],
    );
    assert.deepEqual(
      (await musicbrainz.lookup('release', RELEASE))?.genres.map((genre) => genre.name),
      ['grunge'],
    );
    assert.equal((await musicbrainz.lookup('artist', ARTIST.mbid))?.title, 'Nirvana');
    assert.equal(await musicbrainz.lookup('artist', '00000000-0000-4000-8000-000000000000'), null);
    assert.ok(fake.requests.some((request) => request.startsWith(`GET /ws/2/recording/${RECORDING}?inc=artists+releases+genres+tags&fmt=json`)));
    assert.ok(fake.userAgents.every((agent) => agent === metadataUserAgent('mailto:admin@example.org')));
  });

  test('a title with quotes is searched as one escaped phrase', async () => {
    await client().search('recording', 'Nirvana', 'Say "Hi" \\ bye');
    const last = new URL(`http://x${fake.requests.at(-1)!.slice(4)}`);
    assert.equal(last.searchParams.get('query'), 'recording:"Say \\"Hi\\" \\\\ bye" AND artist:"Nirvana"');
  });

  test('requests are spaced a second apart through the shared spacer', async () => {
    const clock = recordingClock('frozen');
    const musicbrainz = client(clock);
    await Promise.all([musicbrainz.lookup('artist', ARTIST.mbid), musicbrainz.lookup('release', RELEASE), musicbrainz.lookup('recording', RECORDING)]);
    assert.deepEqual(clock.slept, [1_000, 2_000]);
  });

  test('a 503 is retried after 1 s, then 2 s (or the Retry-After); four in a row is Unavailable', async () => {
    const clock = recordingClock();
    fake.failNext({ status: 503 }, '/ws/2/artist', 2);
    assert.equal((await client(clock).lookup('artist', ARTIST.mbid))?.mbid, ARTIST.mbid);
    assert.deepEqual(clock.slept, [1_000, 2_000]);

    const retryAfter = recordingClock();
    fake.failNext({ status: 503, headers: { 'retry-after': '7' } }, '/ws/2/artist');
    await client(retryAfter).lookup('artist', ARTIST.mbid);
    assert.deepEqual(retryAfter.slept, [7_000]);

    fake.failNext({ status: 503 }, '/ws/2/artist', 4);
    const error = await client()
      .lookup('artist', ARTIST.mbid)
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof ProviderError && error.failure === 'Unavailable' && error.provider === 'musicbrainz');
  });

  test('a cached answer (a 404 too) is not asked again', async () => {
    const stored = new Map<string, unknown>();
    const cache: ResponseCache = {
      get: async (url) => (stored.has(url) ? { body: stored.get(url) } : undefined),
      put: async (url, body) => void stored.set(url, body),
    };
    const musicbrainz = client(recordingClock(), cache);
    const before = fake.requests.length;
    for (let round = 0; round < 2; round++) {
      assert.equal((await musicbrainz.lookup('artist', ARTIST.mbid))?.title, 'Nirvana');
      assert.equal(await musicbrainz.lookup('release', '00000000-0000-4000-8000-000000000000'), null);
    }
    assert.equal(fake.requests.length - before, 2);
  });
});
