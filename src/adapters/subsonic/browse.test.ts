import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { ALBUM_LIST_TYPES } from './album-list.ts';
import { assertWellFormed, errorCode, rest, restJson, subsonicClient, subsonicUser } from './client-testing.ts';
import { createTestLibrary, type TestLibrary } from './library-testing.ts';

describeWithApp('Subsonic REST: browsing', (app) => {
  let user: Awaited<ReturnType<typeof subsonicUser>>;
  let library: TestLibrary;
  let privateLibrary: TestLibrary;
  let client: ReturnType<typeof subsonicClient>;
  const track = (path: string) => library.tracks.get(path)!;

  before(async () => {
    user = await subsonicUser(app(), 'browser');
    const other = await subsonicUser(app(), 'someone');
    library = await createTestLibrary(app().ctx.db);
    privateLibrary = await createTestLibrary(
      app().ctx.db,
      [{ path: 'Secret/Hidden.mp3', metadata: { artist: 'Hidden Artist', title: 'Hidden', album: 'Hidden Album', genre: 'Rock', year: 2001 } }],
      { userId: other.userId, name: 'Private' },
    );
    client = subsonicClient(app(), { username: user.handle, password: user.key });
    // Plays and a star: the frequent, recent, highest and starred lists.
    const blue = track('Beta/Blue Record/1-01 Blue.mp3');
    await app()
      .ctx.db.insertInto('scrobbles')
      .values(
        [1, 2, 3].map((minutes) => ({
          user_id: user.userId,
          track_id: blue,
          listened_at: new Date(Date.now() - minutes * 60_000),
          submitted: JSON.stringify({}),
        })),
      )
      .execute();
    const firstAlbum = (
      await app().ctx.db.selectFrom('tracks').select('album_id').where('id', '=', track('The Alpha Band/First Album/01 Opening.mp3')).executeTakeFirstOrThrow()
    ).album_id!;
    await app().ctx.db.insertInto('stars').values({ user_id: user.userId, subject_kind: 'album', subject_id: firstAlbum }).execute();
  });
  after(() => {
    library.remove();
    privateLibrary.remove();
  });

  test('getMusicFolders lists the folders the user sees, with integer ids', async () => {
    const folders = (await client.getMusicFolders()).musicFolders.musicFolder;
    assert.deepEqual(folders, [{ id: library.sourceId, name: 'Music' }]);
  });

  test('getIndexes and getMusicDirectory walk the folder tree', async () => {
    const indexes = (await client.getIndexes({})).indexes;
    assert.equal(indexes.ignoredArticles, 'The El La Los Las Le Les');
    assert.ok(indexes.lastModified > 0);
    assert.deepEqual(
      indexes.index?.map((index) => [index.name, (index.artist ?? []).map((artist) => artist.name)]),
      [
        ['A', ['The Alpha Band']],
        ['B', ['Beta']],
      ],
    );
    assert.deepEqual(
      indexes.child?.map((song) => song.title),
      ['Loose Track'],
    );
    assert.equal(errorCode(await client.getIndexes({ musicFolderId: privateLibrary.sourceId } as never)), 70);

    const beta = library.directories.get('Beta')!;
    const artistDirectory = (await client.getMusicDirectory({ id: beta })).directory;
    assert.equal(artistDirectory.name, 'Beta');
    assert.equal(artistDirectory.parent, library.directories.get(''));
    assert.deepEqual(
      artistDirectory.child?.map((child) => [child.title, child.isDir]),
      [['Blue Record', true]],
    );
    const albumDirectory = (await client.getMusicDirectory({ id: library.directories.get('Beta/Blue Record')! })).directory;
    assert.deepEqual(
      albumDirectory.child?.map((child) => [child.title, child.isDir, child.parent]),
      [
        ['Blue', false, albumDirectory.id],
        ['Green', false, albumDirectory.id],
      ],
    );
    assert.equal(errorCode(await client.getMusicDirectory({ id: privateLibrary.directories.get('Secret')! })), 70, "another user's folder is not found");
    assert.equal(errorCode(await client.getMusicDirectory({ id: 'not-a-uuid' })), 70);
  });

  test('getArtists, getArtist, getAlbum (disc/track order), getSong, info', async () => {
    const artists = (await client.getArtists()).artists;
    const names = artists.index?.flatMap((index) => (index.artist ?? []).map((artist) => artist.name));
    assert.deepEqual(names, ['The Alpha Band', 'Beta', 'Gamma'], 'only artists with a playable song; "The" ignored');
    const beta = artists.index!.flatMap((index) => index.artist ?? []).find((artist) => artist.name === 'Beta')!;
    const artist = (await client.getArtist({ id: beta.id })).artist;
    assert.equal(artist.albumCount, 1);
    assert.deepEqual(
      artist.album?.map((album) => album.name),
      ['Blue Record'],
    );
    const album = (await client.getAlbum({ id: artist.album![0]!.id })).album;
    assert.equal(album.songCount, 2);
    assert.deepEqual(
      album.song?.map((song) => [song.title, song.discNumber]),
      [
        ['Blue', 1],
        ['Green', 2],
      ],
    );
    assert.equal(album.year, 1995);
    const { song: _songs, ...albumItself } = album;
    // (JSON both: the client reads one `created` as a Date, the other as the text sent.)
    const asSent = (value: unknown) => JSON.parse(JSON.stringify(value));
    assert.deepEqual(asSent(albumItself), asSent(artist.album![0]), "the album's own figures agree with its view in a list");
    // An id merged away names the album that absorbed it.
    const { db } = app().ctx;
    const edit = await db
      .insertInto('catalog_edits')
      .values({ kind: 'mergeAlbums', summary: 'test', changes: '{}', touched: [] })
      .returning('id')
      .executeTakeFirstOrThrow();
    const mergedAway = '00000000-0000-4000-8000-00000000a1b0';
    await db.insertInto('catalog_aliases').values({ kind: 'album', old_id: mergedAway, survivor_id: album.id, edit_id: edit.id }).execute();
    assert.equal((await client.getAlbum({ id: mergedAway })).album.id, album.id);
    const song = (await client.getSong({ id: track('Beta/Blue Record/1-01 Blue.mp3') })).song;
    assert.equal(song.title, 'Blue');
    assert.equal(song.contentType, 'audio/mpeg');
    assert.equal(song.playCount, 3);
    assert.equal(errorCode(await client.getSong({ id: privateLibrary.tracks.get('Secret/Hidden.mp3')! })), 70);
  });

  test('getAlbumList2 answers every type; byYear ranges either way; byGenre; a missing type is 10, an unknown one 0', async () => {
    const list = async (params: Record<string, unknown>) => (await client.getAlbumList2(params as never)).albumList2.album?.map((album) => album.name) ?? [];
    for (const type of ALBUM_LIST_TYPES) {
      const extra = type === 'byYear' ? { fromYear: 1990, toYear: 2030 } : type === 'byGenre' ? { genre: 'Rock' } : {};
      const response = await client.getAlbumList2({ type, ...extra } as never);
      assert.equal(response.status, 'ok', type);
    }
    assert.deepEqual(await list({ type: 'alphabeticalByName' }), ['Blue Record', 'First Album', 'Singles']);
    assert.deepEqual(await list({ type: 'alphabeticalByName', size: 1, offset: 1 }), ['First Album']);
    // "The Alpha Band" sorts under A, as getArtists and getIndexes file it.
    assert.deepEqual(await list({ type: 'alphabeticalByArtist' }), ['First Album', 'Blue Record', 'Singles']);
    assert.deepEqual(await list({ type: 'random', size: 10 }).then((names) => names.sort()), ['Blue Record', 'First Album', 'Singles']);
    assert.deepEqual(await list({ type: 'frequent' }), ['Blue Record']);
    assert.deepEqual(await list({ type: 'recent' }), ['Blue Record']);
    assert.deepEqual(await list({ type: 'starred' }), ['First Album']);
    assert.deepEqual((await list({ type: 'highest' })).slice(0, 2), ['First Album', 'Blue Record']);
    assert.deepEqual(await list({ type: 'byYear', fromYear: 1990, toYear: 2005 }), ['Blue Record', 'First Album']);
    assert.deepEqual(await list({ type: 'byYear', fromYear: 2005, toYear: 1990 }), ['First Album', 'Blue Record']);
    assert.deepEqual(await list({ type: 'byGenre', genre: 'Rock' }), ['First Album'], "another user's Rock album stays hidden");
    assert.deepEqual(await list({ type: 'newest', musicFolderId: library.sourceId }).then((names) => names.sort()), ['Blue Record', 'First Album', 'Singles']);
    assert.equal((await restJson(app(), 'getAlbumList2', { u: user.handle, p: user.key })).error.code, 10);
    assert.equal((await restJson(app(), 'getAlbumList2', { u: user.handle, p: user.key, type: 'byYear' })).error.code, 10);
    assert.equal((await restJson(app(), 'getAlbumList2', { u: user.handle, p: user.key, type: 'loudest' })).error.code, 0);
    const legacy = (await client.getAlbumList({ type: 'alphabeticalByName' })).albumList.album;
    assert.deepEqual(
      legacy?.map((album) => [album.title, album.isDir]),
      [
        ['Blue Record', true],
        ['First Album', true],
        ['Singles', true],
      ],
    );
  });

  test('getRandomSongs, getGenres, getSongsByGenre', async () => {
    const random = (await client.getRandomSongs({ size: 50 })).randomSongs.song ?? [];
    assert.equal(random.length, 5);
    const jazz = (await client.getRandomSongs({ genre: 'Jazz', fromYear: 1990, toYear: 1999 })).randomSongs.song ?? [];
    assert.deepEqual(jazz.map((song) => song.title).sort(), ['Blue', 'Green']);
    const genres = (await client.getGenres()).genres.genre ?? [];
    assert.deepEqual(
      genres.map((genre) => [genre.value, genre.songCount, genre.albumCount]),
      [
        ['Jazz', 2, 1],
        ['Pop', 1, 1],
        ['Rock', 2, 1],
      ],
    );
    const rock = (await client.getSongsByGenre({ genre: 'Rock', count: 1, offset: 1 })).songsByGenre.song ?? [];
    assert.deepEqual(
      rock.map((song) => song.title),
      ['Second Song'],
    );
  });

  test('search3 and search2: by text, paged, and everything for an empty query', async () => {
    const found = (await client.search3({ query: 'blue' })).searchResult3;
    assert.deepEqual(
      found.album?.map((album) => album.name),
      ['Blue Record'],
    );
    assert.deepEqual(
      found.song?.map((song) => song.title),
      ['Blue', 'Green'],
      'songs match by album too',
    );
    assert.deepEqual(found.artist ?? [], []);
    const everything = (await client.search3({ query: '', songCount: 100 })).searchResult3;
    assert.equal(everything.song?.length, 5);
    assert.equal(everything.artist?.length, 3);
    const quoted = (await client.search3({ query: '""', songCount: 2, songOffset: 4 })).searchResult3;
    assert.equal(quoted.song?.length, 1);
    assert.deepEqual((await client.search3({ query: 'Hidden' })).searchResult3.song ?? [], [], "another user's files are not found");
    const legacy = (await client.search2({ query: 'alpha' })).searchResult2;
    assert.deepEqual(
      legacy.artist?.map((artist) => artist.name),
      ['The Alpha Band'],
    );
  });

  test('XML answers of browsing methods are well-formed, with songs as elements and their fields as attributes', async () => {
    const auth = { u: user.handle, p: user.key };
    const album = (await client.getSong({ id: track('Beta/Blue Record/1-01 Blue.mp3') })).song.albumId!;
    for (const [method, params] of [
      ['getAlbum', { id: album }],
      ['getIndexes', {}],
      ['search3', { query: '' }],
      ['getGenres', {}],
      ['getArtists', {}],
    ] as const) {
      const xml = await (await rest(app(), method, { ...auth, ...params })).text();
      assertWellFormed(xml);
      assert.match(xml, /status="ok"/, method);
    }
    const albumXml = await (await rest(app(), 'getAlbum', { ...auth, id: album })).text();
    assert.match(albumXml, /<album [^>]*name="Blue Record"[^>]*><song [^>]*title="Blue"[^>]*><genres name="Jazz"\/><\/song>/);
    assert.match(await (await rest(app(), 'getGenres', auth)).text(), /<genre songCount="2" albumCount="1">Jazz<\/genre>/);
  });
});
