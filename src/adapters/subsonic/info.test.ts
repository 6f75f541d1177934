import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { albumCoverUrl, fetchAlbumCover } from '../../core/catalog/enrich/covers.ts';
import { createCoverArtClient } from '../../core/providers/coverart/client.ts';
import { startFakeCoverArt } from '../../core/providers/coverart/fake-testing.ts';
import type { FakeServer } from '../../core/providers/fake/server.ts';
import { metadataUserAgent } from '../../core/providers/metadata-fetch.ts';
import { testPng } from '../../core/library/test-music.ts';
import { assertWellFormed, errorCode, rest, restJson, subsonicClient, subsonicUser } from './client-testing.ts';
import { COVER, createTestLibrary, type TestLibrary } from './library-testing.ts';

const OPENING = 'The Alpha Band/First Album/01 Opening.mp3';
const LOOSE = 'Loose Track.mp3';
const SINGLES_RELEASE = 'c0000000-0000-4000-8000-00000000000a';
const FIRST_RELEASE = 'c0000000-0000-4000-8000-00000000000b';
const ALPHA_MBID = 'a0000000-0000-4000-8000-00000000000a';
/** An artist's picture is whatever address an admin gave it. */
const ALPHA_PICTURE = 'https://pictures.example/alpha.jpg';
/** The Cover Art Archive's picture, unlike the library's COVER. */
const ARCHIVE_COVER = Buffer.from(testPng('archive'));

let coverart: FakeServer;
before(async () => {
  coverart = await startFakeCoverArt({
    [SINGLES_RELEASE]: { contentType: 'image/png', data: ARCHIVE_COVER },
    [FIRST_RELEASE]: { contentType: 'image/png', data: ARCHIVE_COVER },
  });
});
after(() => coverart.close());

describeWithApp('Subsonic REST: artist and album info, and covers enrichment kept', (app) => {
  let user: Awaited<ReturnType<typeof subsonicUser>>;
  let library: TestLibrary;
  let client: ReturnType<typeof subsonicClient>;
  const song = (path: string) => client.getSong({ id: library.tracks.get(path)! }).then((answer) => answer.song);
  const picture = async (response: Response) => ({ type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) });

  /** Enrichment's own step: the release's front cover fetched (from the fake archive) and kept for the album. */
  const enrichCover = (albumId: string, release: string) =>
    fetchAlbumCover(
      app().ctx.db,
      createCoverArtClient({ baseUrl: coverart.url, userAgent: metadataUserAgent('mailto:admin@example.org') }),
      app().ctx.config.publicUrl,
      albumId,
      release,
    );

  before(async () => {
    user = await subsonicUser(app(), 'curious');
    library = await createTestLibrary(app().ctx.db);
    client = subsonicClient(app(), { username: user.handle, password: user.key });
  });
  after(() => library.remove());

  test('getCoverArt serves the cover enrichment kept when the library has none, by album and song id; the coverArt ids name it', async () => {
    const loose = await song(LOOSE);
    assert.equal(loose.coverArt, undefined);
    const none = await client.getCoverArt({ id: loose.albumId! });
    assert.equal(((await none.json()) as any)['subsonic-response'].error.code, 70);
    assert.ok((await enrichCover(loose.albumId!, SINGLES_RELEASE)) > 0);
    for (const id of [loose.albumId!, loose.id]) {
      const cover = await client.getCoverArt({ id, size: 64 });
      assert.equal(cover.status, 200, id);
      assert.deepEqual(await picture(cover), { type: 'image/png', bytes: ARCHIVE_COVER });
      assert.match(cover.headers.get('cache-control') ?? '', /max-age/);
    }
    assert.equal((await song(LOOSE)).coverArt, loose.albumId, "a song without a picture of its own names its album's cover");
    assert.equal((await client.getAlbum({ id: loose.albumId! })).album.coverArt, loose.albumId);
  });

  test("the library's own picture comes before the one enrichment kept", async () => {
    const opening = await song(OPENING);
    assert.ok((await enrichCover(opening.albumId!, FIRST_RELEASE)) > 0);
    for (const id of [opening.albumId!, opening.id]) assert.deepEqual(await picture(await client.getCoverArt({ id })), { type: 'image/png', bytes: COVER });
    assert.equal((await song(OPENING)).coverArt, opening.id);
  });

  test('getAlbumInfo2 and getArtistInfo2: the MusicBrainz id and the picture the catalog knows, nothing invented', async () => {
    const loose = await song(LOOSE);
    const info = (await client.getAlbumInfo2({ id: loose.albumId! })).albumInfo;
    const coverUrl = albumCoverUrl(app().ctx.config.publicUrl, loose.albumId!);
    assert.deepEqual(info, { smallImageUrl: coverUrl, mediumImageUrl: coverUrl, largeImageUrl: coverUrl });
    assert.deepEqual(
      await picture(await fetch(`${app().apiUrl}/covers/${loose.albumId}`)),
      { type: 'image/png', bytes: ARCHIVE_COVER },
      'the URL serves the cover',
    );

    const opening = await song(OPENING);
    const artistId = opening.artistId!;
    await app().ctx.db.updateTable('artists').set({ mbid: ALPHA_MBID, picture: ALPHA_PICTURE }).where('id', '=', artistId).execute();
    await app().ctx.db.updateTable('albums').set({ mbid: FIRST_RELEASE }).where('id', '=', opening.albumId!).execute();
    assert.deepEqual((await client.getArtistInfo2({ id: artistId })).artistInfo2, {
      musicBrainzId: ALPHA_MBID,
      smallImageUrl: ALPHA_PICTURE,
      mediumImageUrl: ALPHA_PICTURE,
      largeImageUrl: ALPHA_PICTURE,
    });
    // OpenSubsonic's artistImageUrl on the ID3 artist, in getArtist and getArtists alike.
    assert.equal((await client.getArtist({ id: artistId })).artist.artistImageUrl, ALPHA_PICTURE);
    const indexed = (await client.getArtists()).artists.index?.flatMap((index) => index.artist ?? []) ?? [];
    assert.equal(indexed.find((artist) => artist.id === artistId)?.artistImageUrl, ALPHA_PICTURE);
    assert.equal((await client.getAlbumInfo2({ id: opening.albumId! })).albumInfo.musicBrainzId, FIRST_RELEASE);

    // An artist the catalog knows nothing more of: no empty biography, no made-up link.
    const beta = (await song('Beta/Blue Record/1-01 Blue.mp3')).artistId!;
    assert.deepEqual((await client.getArtistInfo2({ id: beta })).artistInfo2, {});
    assert.equal(errorCode(await client.getArtistInfo2({ id: '00000000-0000-4000-8000-000000000000' })), 70);
    assert.equal(errorCode(await client.getAlbumInfo2({ id: '00000000-0000-4000-8000-000000000000' })), 70);
  });

  test("in XML the info's fields are child elements, as Subsonic's schema has them", async () => {
    const artistId = (await song(OPENING)).artistId!;
    const response = await rest(app(), 'getArtistInfo2', { u: user.handle, p: user.key, id: artistId });
    const xml = await response.text();
    assertWellFormed(xml);
    assert.match(
      xml,
      new RegExp(
        `<artistInfo2><musicBrainzId>${ALPHA_MBID}</musicBrainzId><smallImageUrl>${ALPHA_PICTURE}</smallImageUrl>` +
          `<mediumImageUrl>${ALPHA_PICTURE}</mediumImageUrl><largeImageUrl>${ALPHA_PICTURE}</largeImageUrl></artistInfo2>`,
      ),
    );
  });

  test('getArtistInfo and getAlbumInfo take folder ids too: an artist or album directory, an album, a song', async () => {
    const opening = await song(OPENING);
    const artistInfo = (id: string) => restJson(app(), 'getArtistInfo', { u: user.handle, p: user.key, id });
    const albumInfo = (id: string) => restJson(app(), 'getAlbumInfo', { u: user.handle, p: user.key, id });
    for (const id of [library.directories.get('The Alpha Band')!, library.directories.get('The Alpha Band/First Album')!, opening.albumId!, opening.id]) {
      assert.equal((await artistInfo(id)).artistInfo?.musicBrainzId, ALPHA_MBID, id);
    }
    for (const id of [library.directories.get('The Alpha Band/First Album')!, opening.id, opening.albumId!]) {
      assert.equal((await albumInfo(id)).albumInfo?.musicBrainzId, FIRST_RELEASE, id);
    }
    assert.equal((await artistInfo('00000000-0000-4000-8000-000000000000')).error.code, 70);
    assert.equal((await albumInfo('not-an-id')).error.code, 70);
  });
});
