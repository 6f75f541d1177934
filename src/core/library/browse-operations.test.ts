import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { listenerWithHistory } from '../scrobbling/testing.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { SERVER_VERSION } from './envelope.ts';
import { catalogTracks, librarySource } from './operations-testing.ts';

const L = (name: string) => `app.svc.library.${name}`;
const ENVELOPE = { status: 'ok', version: '1.16.1', type: 'earshot', serverVersion: SERVER_VERSION, openCompat: true };
const MUSIC_DIR = '/srv/music-browse-test';

const SHARED = [
  { artist: 'Ana Moura', title: 'Leva-me aos Fados', album: 'Desfado', trackNumber: 2, durationMs: 180_000 },
  { artist: 'Ana Moura', title: 'Desfado', album: 'Desfado', trackNumber: 1, durationMs: 200_000 },
  { artist: 'Ana Moura', title: 'Moura Encantada', album: 'Moura', trackNumber: 1, durationMs: 210_000 },
  { artist: 'Mariza', title: 'Primavera', album: 'Transparente', trackNumber: 1, durationMs: 150_500 },
];
/** A song in the catalog (someone played it) with no file: not in anyone's library. */
const FILELESS = { artist: 'Carminho', title: 'Saudades do Brasil', album: 'Canto' };
/** A song only in one user's own file host. */
const PRIVATE = { artist: 'Dulce Pontes', title: 'Canção do Mar', album: 'Lágrimas' };

interface Library {
  shared: string[];
  fileless: string;
  private: string;
  directories: Map<string, string>;
}

/** The shared songs in the music folder (a source rooted at MUSIC_DIR), the private one in the owner's file host. */
async function library(app: TestApp, ownerId: string): Promise<Library> {
  const [fileless, secret, ...shared] = await catalogTracks(app, [FILELESS, PRIVATE, ...SHARED]);
  const folder = await librarySource(
    app,
    null,
    shared.map((trackId, i) => ({ path: `${SHARED[i]!.artist}/${SHARED[i]!.album}/${i + 1}.mp3`, trackId })),
  );
  await app.ctx.db.updateTable('library_sources').set({ root: MUSIC_DIR }).where('id', '=', folder.sourceId).execute();
  await librarySource(app, ownerId, [
    { path: 'Mine/1.mp3', trackId: secret! },
    { path: 'Mine/cover.jpg', trackId: null },
  ]);
  return { shared, fileless: fileless!, private: secret!, directories: folder.directories };
}

const catalogId = async (app: TestApp, table: 'artists' | 'albums', column: 'name' | 'title', value: string) =>
  (await app.ctx.db.selectFrom(table).select('id').where(column, '=', value).executeTakeFirstOrThrow()).id;

describeWithApp(
  'library browsing operations',
  (app) => {
    let alice: Awaited<ReturnType<typeof listenerWithHistory>>;
    let bob: Awaited<ReturnType<typeof listenerWithHistory>>;
    let lib: Library;
    before(async () => {
      alice = await listenerWithHistory(app(), 'browse-alice', [{ at: '2024-03-01T10:00:00Z', ...SHARED[1]! }]);
      bob = await listenerWithHistory(app(), 'browse-bob');
      lib = await library(app(), bob.userId);
    });

    test('getArtists: the artists with a song the caller can play, by name, paged; counts over playable songs', async () => {
      const names = async (token: string, params = {}) => {
        const { status, body } = await app().query(L('getArtists'), params, token);
        assert.equal(status, 200);
        return body.artists.artist.map((a: { name: string; songCount: number; albumCount: number }) => [a.name, a.songCount, a.albumCount]);
      };
      assert.deepEqual(
        await names(alice.token),
        [
          ['Ana Moura', 3, 2],
          ['Mariza', 1, 1],
        ],
        'Carminho has no file; Dulce Pontes is in bob’s file host only',
      );
      assert.deepEqual(await names(bob.token), [
        ['Ana Moura', 3, 2],
        ['Dulce Pontes', 1, 1],
        ['Mariza', 1, 1],
      ]);
      assert.deepEqual(await names(bob.token, { limit: 1, offset: 1 }), [['Dulce Pontes', 1, 1]]);
      assert.deepEqual(await names(bob.token, { offset: 3 }), []);
      const { body } = await app().query(L('getArtists'), {}, alice.token);
      assert.deepEqual({ ...body, artists: undefined }, { ...ENVELOPE, artists: undefined });
      assert.equal(body.artists.artist[0].id, await catalogId(app(), 'artists', 'name', 'Ana Moura'));
    });

    test("getAlbums: by title, or one artist's; getAlbum: an album's playable songs by track", async () => {
      const ana = await catalogId(app(), 'artists', 'name', 'Ana Moura');
      const titles = async (params: Record<string, string | number>) =>
        (await app().query(L('getAlbums'), params, alice.token)).body.albums.album.map(
          (a: { name: string; artist: string; songCount: number; year?: number }) => [a.name, a.artist, a.songCount],
        );
      assert.deepEqual(await titles({}), [
        ['Desfado', 'Ana Moura', 2],
        ['Moura', 'Ana Moura', 1],
        ['Transparente', 'Mariza', 1],
      ]);
      assert.deepEqual(await titles({ artistId: ana, limit: 1 }), [['Desfado', 'Ana Moura', 2]]);
      assert.deepEqual(await titles({ artistId: ana, offset: 1 }), [['Moura', 'Ana Moura', 1]]);

      const desfado = await catalogId(app(), 'albums', 'title', 'Desfado');
      await app().ctx.db.updateTable('albums').set({ album_art: 'https://art.example/desfado.jpg' }).where('id', '=', desfado).execute();
      const { status, body } = await app().query(L('getAlbum'), { id: desfado }, alice.token);
      assert.equal(status, 200);
      assert.deepEqual({ ...body, album: undefined }, { ...ENVELOPE, album: undefined });
      assert.deepEqual([body.album.name, body.album.albumArt, body.album.songCount], ['Desfado', 'https://art.example/desfado.jpg', 2]);
      assert.deepEqual(
        body.album.song.map((s: { id: string }) => s.id),
        [lib.shared[1], lib.shared[0]],
        'by track number',
      );
      assert.equal((await titles({})).length, 3);
    });

    test('browsing errors: unknown ids 404, bad paging 400, no credentials 401', async () => {
      const canto = await catalogId(app(), 'albums', 'title', 'Canto');
      const lagrimas = await catalogId(app(), 'albums', 'title', 'Lágrimas');
      const cases: [string, Record<string, string | number>, number, string][] = [
        ['getAlbums', { artistId: randomUUID() }, 404, 'NotFound'],
        ['getAlbums', { artistId: 'nope' }, 404, 'NotFound'],
        ['getAlbum', { id: canto }, 404, 'NotFound'],
        ['getAlbum', { id: lagrimas }, 404, 'NotFound'],
        ['getAlbum', {}, 400, 'InvalidRequest'],
        ['getArtists', { limit: 0 }, 400, 'InvalidRequest'],
        ['getAlbums', { limit: 501 }, 400, 'InvalidRequest'],
        ['getAlbums', { offset: -1 }, 400, 'InvalidRequest'],
        ['getDirectory', { at: '/Nowhere' }, 404, 'NotFound'],
        ['getDirectory', { at: randomUUID() }, 404, 'NotFound'],
      ];
      for (const [nsid, params, status, error] of cases) {
        const result = await app().query(L(nsid), params, alice.token);
        assert.deepEqual([result.status, result.body.error], [status, error], `${nsid} ${JSON.stringify(params)}`);
        assert.equal(typeof result.body.message, 'string');
      }
      assert.equal((await app().query(L('getAlbum'), { id: lagrimas }, bob.token)).status, 200, "bob's own file host song");
      for (const nsid of ['getArtists', 'getAlbums', 'getAlbum', 'getDirectory'])
        assert.equal((await app().query(L(nsid), { id: lib.fileless })).status, 401, nsid);
    });

    test('getDirectory: the music folder a directory at a time, in getFiles’ shape', async () => {
      const root = await app().query(L('getDirectory'), {}, alice.token);
      assert.equal(root.status, 200);
      assert.deepEqual(Object.keys(root.body).sort(), ['directories', 'directory', 'files', 'parentDirectory']);
      assert.deepEqual([root.body.directory.path, root.body.parentDirectory, root.body.files], ['/', {}, []]);
      assert.deepEqual(
        root.body.directories.map((d: { name: string; path: string }) => [d.name, d.path]),
        [
          ['Ana Moura', '/Ana Moura'],
          ['Mariza', '/Mariza'],
        ],
      );
      const byPath = await app().query(L('getDirectory'), { at: '/Ana Moura/Desfado/' }, alice.token);
      const byId = await app().query(L('getDirectory'), { at: lib.directories.get('Ana Moura/Desfado')! }, alice.token);
      assert.deepEqual(byPath.body, byId.body);
      const { directory, parentDirectory, directories, files } = byPath.body;
      assert.deepEqual(
        [directory.name, directory.path, parentDirectory.path, parentDirectory.id, directories],
        ['Desfado', '/Ana Moura/Desfado', '/Ana Moura', directory.parentId, []],
      );
      assert.deepEqual(
        files.map((f: { name: string; trackId: string; directoryId: string }) => [f.name, f.trackId, f.directoryId]),
        [
          ['1.mp3', lib.shared[0], directory.id],
          ['2.mp3', lib.shared[1], directory.id],
        ],
      );
      assert.deepEqual(Object.keys(files[0]).sort(), ['createdAt', 'directoryId', 'fileId', 'id', 'name', 'trackId', 'updatedAt']);
      const bobsFolder = await app()
        .ctx.db.selectFrom('library_directories')
        .select('id')
        .where('user_id', '=', bob.userId)
        .where('path', '=', 'Mine')
        .executeTakeFirstOrThrow();
      assert.equal((await app().query(L('getDirectory'), { at: bobsFolder.id }, bob.token)).status, 404, "a file host's folder is not the music folder's");
    });
  },
  { musicDir: MUSIC_DIR },
);

describeWithApp(
  'library getDirectory without a music folder',
  (app) => {
    test('404 saying how to set one up', async () => {
      const alice = await listenerWithHistory(app(), 'nodir-alice');
      const result = await app().query(L('getDirectory'), {}, alice.token);
      assert.deepEqual([result.status, result.body.error], [404, 'NotFound']);
      assert.match(result.body.message, /EARSHOT_MUSIC_DIR/);
    });
  },
  { musicDir: undefined },
);
