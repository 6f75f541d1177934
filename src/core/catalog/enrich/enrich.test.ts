import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { AppContext } from '../../context.ts';
import { startFakeCoverArt } from '../../providers/coverart/fake-testing.ts';
import { createCoverArtClient } from '../../providers/coverart/client.ts';
import { recordingClock } from '../../providers/fake/clock-testing.ts';
import type { FakeServer } from '../../providers/fake/server.ts';
import { metadataUserAgent, RequestSpacer } from '../../providers/metadata-fetch.ts';
import { createMusicBrainzClient } from '../../providers/musicbrainz/client.ts';
import { startFakeMusicBrainz, type FakeMusicBrainz } from '../../providers/musicbrainz/fake-testing.ts';
import { listenerWithHistory, recordListens, type TestListener } from '../../scrobbling/testing.ts';
import { describeWithApp } from '../../../app/testing.ts';
import { databaseCache } from './cache.ts';
import { FILE_RESPONSE_HEADERS } from '../../../adapters/http/file-headers.ts';
import type { CoverArtClient } from '../../providers/types.ts';
import { albumCoverUrl, fetchAlbumCover } from './covers.ts';
import { enrichCatalog, type MetadataClients } from './job.ts';
import { claimLease, releaseLease } from './lease.ts';

const SLOWDIVE = { mbid: 'a0000000-0000-4000-8000-000000000001', name: 'Slowdive' };
const RIDE = { mbid: 'a0000000-0000-4000-8000-000000000002', name: 'Ride' };
const LUSH = { mbid: 'a0000000-0000-4000-8000-000000000003', name: 'Lush' };
const ALISON = 'b0000000-0000-4000-8000-000000000001';
const SOUVLAKI = 'c0000000-0000-4000-8000-000000000001';
const VAPOUR_TRAIL = 'b0000000-0000-4000-8000-000000000002';
const NOWHERE = 'c0000000-0000-4000-8000-000000000002';
const SPACE_STATION = 'b0000000-0000-4000-8000-000000000004';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

let musicbrainz: FakeMusicBrainz;
let coverart: FakeServer;
before(async () => {
  musicbrainz = await startFakeMusicBrainz({
    recordings: [
      { mbid: ALISON, title: 'Alison', artist: SLOWDIVE, releases: [{ mbid: SOUVLAKI, title: 'Souvlaki' }], genres: ['shoegaze', 'dream pop'] },
      { mbid: SPACE_STATION, title: 'Souvlaki Space Station', artist: SLOWDIVE, releases: [{ mbid: SOUVLAKI, title: 'Souvlaki' }] },
      { mbid: VAPOUR_TRAIL, title: 'Vapour Trail', artist: RIDE, releases: [{ mbid: NOWHERE, title: 'Nowhere' }], genres: ['shoegaze'] },
      // Only a loose match: a search scores it below the threshold.
      { mbid: 'b0000000-0000-4000-8000-000000000003', title: 'Sweetness and Light', artist: LUSH, searchScore: 70, genres: ['dream pop'] },
    ],
    releases: [
      { mbid: SOUVLAKI, title: 'Souvlaki', artist: SLOWDIVE, genres: ['shoegaze'] },
      { mbid: NOWHERE, title: 'Nowhere', artist: RIDE, genres: ['shoegaze'] },
    ],
    artists: [{ mbid: SLOWDIVE.mbid, title: SLOWDIVE.name, genres: ['shoegaze', 'dream pop', 'alternative rock'] }],
  });
  coverart = await startFakeCoverArt({ [SOUVLAKI]: { contentType: 'image/png', data: PNG }, [NOWHERE]: { contentType: 'image/png', data: PNG } });
});
after(async () => {
  await musicbrainz.close();
  await coverart.close();
});

describeWithApp('metadata enrichment against fake MusicBrainz and Cover Art Archive', (app) => {
  let admin: TestListener;
  let clients: MetadataClients;
  before(async () => {
    // The first account is the admin who edits the catalog below.
    admin = await listenerWithHistory(app(), 'curator');
    const userAgent = metadataUserAgent('mailto:admin@example.org');
    clients = {
      musicbrainz: createMusicBrainzClient({
        baseUrl: musicbrainz.url,
        userAgent,
        spacer: new RequestSpacer(1_000, recordingClock()),
        cache: databaseCache(app().ctx.db),
      }),
      coverart: createCoverArtClient({ baseUrl: coverart.url, userAgent }),
    };
  });

  const withEnrichment = (ctx: AppContext, enabled: boolean): AppContext => ({
    ...ctx,
    config: { ...ctx.config, enrichment: { ...ctx.config.enrichment, enabled } },
  });
  const enrich = (enabled = true) => enrichCatalog(withEnrichment(app().ctx, enabled), { clients });
  const song = (title: string) =>
    app()
      .ctx.db.selectFrom('tracks as t')
      .leftJoin('albums as al', 'al.id', 't.album_id')
      .innerJoin('artists as ar', 'ar.id', 't.artist_id')
      .select([
        't.mbid',
        't.genre',
        't.album_art',
        't.album_id',
        'al.mbid as album_mbid',
        'al.genre as album_genre',
        'al.album_art as album_cover',
        'ar.mbid as artist_mbid',
        'ar.genres as artist_genres',
      ])
      .where('t.title', '=', title)
      .executeTakeFirstOrThrow();

  test('switched off (the tests’ default), a run does nothing and asks nothing', async () => {
    assert.equal(app().ctx.config.enrichment.enabled, false);
    await recordListens(app(), admin, [{ at: '2024-03-01T10:00:00Z', artist: 'Slowdive', title: 'Alison', album: 'Souvlaki' }]);
    const asked = musicbrainz.requests.length;
    assert.equal(await enrich(false), 'off');
    assert.equal(musicbrainz.requests.length, asked);
    assert.equal((await song('Alison')).mbid, null);
  });

  test('another process holding the lease keeps this one from enriching', async () => {
    assert.ok(await claimLease(app().ctx.db, 'another process'));
    try {
      assert.equal(await enrich(), 'busy');
    } finally {
      await releaseLease(app().ctx.db, 'another process');
    }
  });

  test('a song without MBID gets its MBID, genre, artist and album MBIDs and genres, and a cover served by Earshot', async () => {
    const run = await enrich();
    assert.ok(typeof run === 'object' && run.enriched >= 3, JSON.stringify(run));
    const alison = await song('Alison');
    const cover = albumCoverUrl(app().ctx.config.publicUrl, alison.album_id!);
    assert.deepEqual(alison, {
      mbid: ALISON,
      genre: 'shoegaze',
      album_art: cover,
      album_id: alison.album_id,
      album_mbid: SOUVLAKI,
      album_genre: 'shoegaze',
      album_cover: cover,
      artist_mbid: SLOWDIVE.mbid,
      artist_genres: ['shoegaze', 'dream pop', 'alternative rock'],
    });
    const served = await fetch(`${app().apiUrl}/covers/${alison.album_id}`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.match(served.headers.get('cache-control') ?? '', /max-age=\d+/);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);
    const again = await fetch(`${app().apiUrl}/covers/${alison.album_id}`, { headers: { 'if-none-match': served.headers.get('etag')! } });
    assert.equal(again.status, 304);
    // Every MusicBrainz request named Earshot and its operator.
    assert.ok(musicbrainz.userAgents.every((agent) => agent.startsWith('Earshot/') && agent.endsWith('( mailto:admin@example.org )')));
  });

  test('a cover is stored only when its bytes are an image, and served as what its stored bytes are, never as declared', async () => {
    const { album_id: albumId } = await song('Alison');
    const served = () => fetch(`${app().apiUrl}/covers/${albumId}`);
    const HTML = Buffer.from('<!DOCTYPE html><script>document.title = "pwned"</script>');
    // A stored declared type is never what is sent.
    await app().ctx.db.updateTable('album_covers').set({ content_type: 'text/html' }).where('album_id', '=', albumId!).execute();
    const png = await served();
    assert.equal(png.headers.get('content-type'), 'image/png');
    for (const [name, value] of Object.entries(FILE_RESPONSE_HEADERS)) assert.equal(png.headers.get(name), value, name);
    assert.deepEqual(Buffer.from(await png.arrayBuffer()), PNG);
    // Stored bytes that are no image (however they got there) are no cover.
    await app().ctx.db.updateTable('album_covers').set({ content_type: 'image/png', data: HTML }).where('album_id', '=', albumId!).execute();
    assert.equal((await served()).status, 404);

    // Whatever a client hands over (the archive's own client already refuses it) is judged by its bytes.
    await app().ctx.db.updateTable('albums').set({ album_art: null }).where('id', '=', albumId!).execute();
    const answering = (cover: { contentType: string; data: Buffer }): CoverArtClient => ({ name: 'coverart', frontCover: async () => cover });
    const { publicUrl } = app().ctx.config;
    assert.equal(await fetchAlbumCover(app().ctx.db, answering({ contentType: 'image/jpeg', data: HTML }), publicUrl, albumId!, SOUVLAKI), 0);
    assert.equal((await song('Alison')).album_cover, null, 'nothing filled from bytes that are no image');
    assert.ok((await fetchAlbumCover(app().ctx.db, answering({ contentType: 'image/jpeg', data: PNG }), publicUrl, albumId!, SOUVLAKI)) > 0);
    const stored = await app().ctx.db.selectFrom('album_covers').select(['content_type', 'data']).where('album_id', '=', albumId!).executeTakeFirstOrThrow();
    assert.deepEqual({ ...stored, data: Buffer.from(stored.data) }, { content_type: 'image/png', data: PNG });
    assert.equal((await served()).headers.get('content-type'), 'image/png');
  });

  test('Wrapped’s genre card shows the enriched genre', async () => {
    const wrapped = await app().query('app.svc.stats.getWrapped', { did: admin.did, year: 2024, tz: 'UTC' });
    assert.deepEqual(wrapped.body.topGenres, [{ genre: 'shoegaze', count: 1 }]);
  });

  test('an album without a cover, an unknown id or a non-id is 404 at /covers/', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const answer = await fetch(`${app().apiUrl}/covers/${id}`);
      assert.equal(answer.status, 404);
      assert.equal(((await answer.json()) as { error: string }).error, 'NotFound');
    }
  });

  test('fields an admin edited are kept: a genre set, an album cover cleared on purpose', async () => {
    await recordListens(app(), admin, [{ at: '2024-04-01T10:00:00Z', artist: 'Ride', title: 'Vapour Trail', album: 'Nowhere' }]);
    const before = await song('Vapour Trail');
    const trackId = (await app().ctx.db.selectFrom('tracks').select('id').where('title', '=', 'Vapour Trail').executeTakeFirstOrThrow()).id;
    const edits = [
      ['app.svc.song.updateSong', { id: trackId, genre: 'Britpop' }],
      ['app.svc.album.updateAlbum', { id: before.album_id, albumArt: 'https://example.org/nowhere.jpg' }],
      ['app.svc.album.updateAlbum', { id: before.album_id, albumArt: null }],
    ] as const;
    for (const [nsid, input] of edits) assert.equal((await app().procedure(nsid, input, admin.token)).status, 200);
    await enrich();
    const after = await song('Vapour Trail');
    assert.equal(after.mbid, VAPOUR_TRAIL);
    assert.equal(after.genre, 'Britpop');
    assert.equal(after.album_mbid, NOWHERE);
    assert.equal(after.album_genre, 'shoegaze');
    assert.equal(after.album_cover, null);
    assert.equal(after.album_art, null);
    assert.ok(!coverart.requests.some((request) => request.includes(NOWHERE)), 'no cover fetched for an album whose cover an admin cleared');
  });

  test('a search scoring below the threshold leaves the song alone, and it is not asked about again next run', async () => {
    await recordListens(app(), admin, [{ at: '2024-05-01T10:00:00Z', artist: 'Lush', title: 'Sweetness & Light' }]);
    await enrich();
    assert.deepEqual(await song('Sweetness & Light').then((row) => [row.mbid, row.genre, row.artist_mbid]), [null, null, null]);
    const attempt = await app()
      .ctx.db.selectFrom('enrichment_attempts')
      .select('outcome')
      .where('kind', '=', 'song')
      .where('outcome', '=', 'no-match')
      .execute();
    assert.equal(attempt.length, 1);
    const asked = musicbrainz.requests.length;
    await enrich();
    assert.equal(musicbrainz.requests.length, asked);
  });

  test('MusicBrainz failing ends the run and gives the lease back; the song is retried once its hour is over', async () => {
    await recordListens(app(), admin, [{ at: '2024-06-01T10:00:00Z', artist: 'Slowdive', title: 'Souvlaki Space Station', album: 'Souvlaki' }]);
    musicbrainz.failNext({ status: 503 }, '/ws/2/recording', 4);
    await assert.rejects(enrich(), /musicbrainz is overloaded/);
    const attempt = () =>
      app()
        .ctx.db.selectFrom('enrichment_attempts as a')
        .innerJoin('tracks as t', 't.id', 'a.entry_id')
        .select(['a.outcome', 'a.entry_id'])
        .where('t.title', '=', 'Souvlaki Space Station')
        .executeTakeFirstOrThrow();
    assert.equal((await attempt()).outcome, 'failed');
    assert.equal((await app().ctx.db.selectFrom('enrichment_lease').select('holder').executeTakeFirstOrThrow()).holder, null);
    const asked = musicbrainz.requests.length;
    await enrich();
    assert.equal(musicbrainz.requests.length, asked, 'not retried within the hour');
    await app()
      .ctx.db.updateTable('enrichment_attempts')
      .set({ tried_at: new Date(Date.now() - 2 * 3_600_000) })
      .where('entry_id', '=', (await attempt()).entry_id)
      .execute();
    await enrich();
    assert.equal((await attempt()).outcome, 'enriched');
    assert.equal((await song('Souvlaki Space Station')).mbid, SPACE_STATION);
  });
});
