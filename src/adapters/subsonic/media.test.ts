import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { errorCode, rest, subsonicClient, subsonicUser } from './client-testing.ts';
import { testPng } from '../../core/library/test-music.ts';
import { pictureEtag } from '../http/file-headers.ts';
import { createTestLibrary, COVER, type TestLibrary } from './library-testing.ts';

const OPENING = 'The Alpha Band/First Album/01 Opening.mp3';
const SECOND = 'The Alpha Band/First Album/02 Second Song.flac';
const BLUE = 'Beta/Blue Record/1-01 Blue.mp3';
const SYNCED_LYRICS = '[ar:Timer]\n[offset:+250]\n\n[00:01.50]One\n[00:03.00][00:10.25]Chorus\n[00:05]Two';

describeWithApp('Subsonic REST: media', (app) => {
  let user: Awaited<ReturnType<typeof subsonicUser>>;
  let library: TestLibrary;
  let client: ReturnType<typeof subsonicClient>;
  const bytesOf = (file: string) => fs.readFileSync(path.join(library.root, file));

  before(async () => {
    user = await subsonicUser(app(), 'listener');
    library = await createTestLibrary(app().ctx.db);
    client = subsonicClient(app(), { username: user.handle, password: user.key });
  });
  after(() => library.remove());

  test('stream and download send the file as stored', async () => {
    const id = library.tracks.get(BLUE)!;
    const streamed = await client.stream({ id, format: 'raw', maxBitRate: 64 } as never);
    assert.equal(streamed.status, 200);
    assert.equal(streamed.headers.get('content-type'), 'audio/mpeg');
    assert.equal(streamed.headers.get('accept-ranges'), 'bytes');
    assert.equal(Number(streamed.headers.get('content-length')), bytesOf(BLUE).length);
    assert.deepEqual(Buffer.from(await streamed.arrayBuffer()), bytesOf(BLUE));
    const ogg = await client.stream({ id: library.tracks.get('Beta/Blue Record/2-01 Green.ogg')! });
    assert.equal(ogg.headers.get('content-type'), 'audio/ogg');
    assert.deepEqual(Buffer.from(await ogg.arrayBuffer()), bytesOf('Beta/Blue Record/2-01 Green.ogg'));
    const downloaded = await client.download({ id });
    assert.match(downloaded.headers.get('content-disposition') ?? '', /attachment/);
    assert.deepEqual(Buffer.from(await downloaded.arrayBuffer()), bytesOf(BLUE));
  });

  test('a Range gets 206 and exactly that slice; an unsatisfiable one 416', async () => {
    const id = library.tracks.get(BLUE)!;
    const whole = bytesOf(BLUE);
    const auth = { u: user.handle, p: user.key, id };
    const partial = await rest(app(), 'stream', auth, { range: 'bytes=100-199' });
    assert.equal(partial.status, 206);
    assert.equal(partial.headers.get('content-range'), `bytes 100-199/${whole.length}`);
    assert.equal(partial.headers.get('content-length'), '100');
    assert.deepEqual(Buffer.from(await partial.arrayBuffer()), whole.subarray(100, 200));
    const tail = await rest(app(), 'stream', auth, { range: 'bytes=-10' });
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), whole.subarray(whole.length - 10));
    const open = await rest(app(), 'stream', auth, { range: `bytes=${whole.length - 5}-` });
    assert.equal(open.status, 206);
    assert.deepEqual(Buffer.from(await open.arrayBuffer()), whole.subarray(whole.length - 5));
    const beyond = await rest(app(), 'stream', auth, { range: `bytes=${whole.length}-` });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${whole.length}`);
  });

  test('a file gone from disk, or an unknown id, is 70', async () => {
    const loose = 'Loose Track.mp3';
    fs.renameSync(path.join(library.root, loose), path.join(library.root, 'moved.mp3'));
    try {
      const response = await client.stream({ id: library.tracks.get(loose)! });
      assert.match(response.headers.get('content-type') ?? '', /json/);
      assert.equal(((await response.json()) as any)['subsonic-response'].error.code, 70);
    } finally {
      fs.renameSync(path.join(library.root, 'moved.mp3'), path.join(library.root, loose));
    }
    const unknown = await client.stream({ id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(((await unknown.json()) as any)['subsonic-response'].error.code, 70);
  });

  test('getCoverArt: embedded picture (MP3, FLAC) by song and album id, folder image by song, album and directory id; none is 70', async () => {
    const opening = library.tracks.get(OPENING)!;
    const album = (await client.getSong({ id: opening })).song.albumId!;
    for (const id of [opening, library.tracks.get(SECOND)!, album]) {
      const cover = await client.getCoverArt({ id, size: 64 });
      assert.equal(cover.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await cover.arrayBuffer()), COVER);
    }
    const blue = library.tracks.get(BLUE)!;
    const blueAlbum = (await client.getSong({ id: blue })).song.albumId!;
    for (const id of [blue, blueAlbum, library.directories.get('Beta/Blue Record')!, library.directories.get('Beta')!]) {
      const cover = await client.getCoverArt({ id });
      assert.equal(cover.status, 200, id);
      assert.deepEqual(Buffer.from(await cover.arrayBuffer()), COVER);
    }
    const none = await client.getCoverArt({ id: library.tracks.get('Loose Track.mp3')! });
    assert.equal(((await none.json()) as any)['subsonic-response'].error.code, 70);
  });

  test('getCoverArt: the ETag is stored with the cover, and If-None-Match is a 304 that reads nothing; a kept album cover has its ETag too', async () => {
    const db = app().ctx.db;
    const opening = library.tracks.get(OPENING)!;
    const first = await client.getCoverArt({ id: opening });
    const etag = first.headers.get('etag')!;
    assert.equal(etag, pictureEtag(COVER));
    const stored = await db.selectFrom('library_files').select('cover_etag').where('track_id', '=', opening).executeTakeFirstOrThrow();
    assert.equal(stored.cover_etag, etag, 'stored the first time it is served');
    // With the file gone, only an answer that read nothing can still be a 304.
    fs.renameSync(path.join(library.root, OPENING), path.join(library.root, 'moved.mp3'));
    try {
      const auth = { u: user.handle, p: user.key, id: opening };
      const unchanged = await rest(app(), 'getCoverArt', auth, { 'if-none-match': etag });
      assert.equal(unchanged.status, 304);
      assert.equal(unchanged.headers.get('etag'), etag);
      assert.equal(unchanged.headers.get('x-content-type-options'), 'nosniff');
      assert.equal((await unchanged.arrayBuffer()).byteLength, 0);
      const other = await rest(app(), 'getCoverArt', auth, { 'if-none-match': '"something else"' });
      assert.equal(other.status, 200, 'another validator gets the picture read under the stored ETag, kept by this process');
      assert.deepEqual(Buffer.from(await other.arrayBuffer()), Buffer.from(COVER));
    } finally {
      fs.renameSync(path.join(library.root, 'moved.mp3'), path.join(library.root, OPENING));
    }
    // An album with no picture in its files: the cover enrichment kept, whose ETag the database computed.
    const loose = (await client.getSong({ id: library.tracks.get('Loose Track.mp3')! })).song.albumId!;
    const kept = Buffer.from(testPng('kept cover'));
    await db.insertInto('album_covers').values({ album_id: loose, content_type: 'image/png', data: kept, release_mbid: 'bench' }).execute();
    try {
      const cover = await client.getCoverArt({ id: loose });
      assert.equal(cover.status, 200);
      assert.equal(cover.headers.get('etag'), pictureEtag(kept), 'the same validator a digest of the bytes gives');
      assert.deepEqual(Buffer.from(await cover.arrayBuffer()), kept);
      const again = await rest(app(), 'getCoverArt', { u: user.handle, p: user.key, id: loose }, { 'if-none-match': pictureEtag(kept) });
      assert.equal(again.status, 304);
    } finally {
      await db.deleteFrom('album_covers').where('album_id', '=', loose).execute();
    }
  });

  test('the public cover route serves a track cover without credentials, with caching headers', async () => {
    const opening = library.tracks.get(OPENING)!;
    const response = await fetch(`${app().apiUrl}/library/covers/${opening}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'image/png');
    assert.match(response.headers.get('cache-control') ?? '', /max-age/);
    const etag = response.headers.get('etag')!;
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), COVER);
    assert.equal((await fetch(`${app().apiUrl}/library/covers/${opening}`, { headers: { 'if-none-match': etag } })).status, 304);
    // The stored validator answers the public route too, without reading the file.
    fs.renameSync(path.join(library.root, OPENING), path.join(library.root, 'moved.mp3'));
    try {
      assert.equal((await fetch(`${app().apiUrl}/library/covers/${opening}`, { headers: { 'if-none-match': etag } })).status, 304);
    } finally {
      fs.renameSync(path.join(library.root, 'moved.mp3'), path.join(library.root, OPENING));
    }
    const unknown = await fetch(`${app().apiUrl}/library/covers/${library.tracks.get('Loose Track.mp3')}`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as any).error, 'NotFound');
    assert.equal((await fetch(`${app().apiUrl}/library/covers/nonsense`)).status, 404);
  });

  test('getLyricsBySongId: unsynced lines from the tags, synced ones from LRC; none is an empty list', async () => {
    // The client types lyricsList as the array itself; OpenSubsonic nests it as lyricsList.structuredLyrics.
    const lyricsOf = async (id: string) =>
      ((await client.getLyricsBySongId({ id })) as unknown as { lyricsList: { structuredLyrics?: { synced: boolean; line?: { value: string }[] }[] } })
        .lyricsList.structuredLyrics ?? [];
    const lyrics = await lyricsOf(library.tracks.get(OPENING)!);
    assert.equal(lyrics.length, 1);
    assert.equal(lyrics[0]!.synced, false);
    assert.deepEqual(
      lyrics[0]!.line?.map((line) => line.value),
      ['First line', 'Second line'],
    );
    assert.deepEqual(await lyricsOf(library.tracks.get(BLUE)!), []);
    // LRC as taggers embed it: tags, an offset, a chorus stamped twice, lines out of order.
    const lrc = await createTestLibrary(app().ctx.db, [{ path: 'Synced/Timed.mp3', metadata: { artist: 'Timer', title: 'Timed', lyrics: SYNCED_LYRICS } }], {
      name: 'Synced',
    });
    try {
      assert.deepEqual(await lyricsOf(lrc.tracks.get('Synced/Timed.mp3')!), [
        {
          displayArtist: 'Timer',
          displayTitle: 'Timed',
          lang: 'xxx',
          synced: true,
          offset: 250,
          line: [
            { start: 1500, value: 'One' },
            { start: 3000, value: 'Chorus' },
            { start: 5000, value: 'Two' },
            { start: 10_250, value: 'Chorus' },
          ],
        },
      ]);
    } finally {
      lrc.remove();
    }
    assert.equal(errorCode(await client.getLyricsBySongId({ id: '00000000-0000-4000-8000-000000000000' })), 70);
  });
});
