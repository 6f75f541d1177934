import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { subsonicUser } from './client-testing.ts';
import { createTestLibrary, type TestLibrary } from './library-testing.ts';

/** Subsonic parameters read as Navidrome reads them (issue 24, item 1), through HTTP. */
// How Subsonic parameters are read: the stored data is the core suites' concern.
describeWithApp(
  'Subsonic REST: parameters as the servers players are written against read them',
  (app) => {
    let user: Awaited<ReturnType<typeof subsonicUser>>;
    let library: TestLibrary;
    let songs: string[];

    before(async () => {
      user = await subsonicUser(app(), 'params');
      library = await createTestLibrary(app().ctx.db);
      songs = [...library.tracks.values()];
    });
    after(() => library.remove());

    /** A JSON call with the parameters in order, names repeated as given; `auth: false` leaves the credentials out. */
    async function call(method: string, pairs: [string, string][], auth = true): Promise<any> {
      const credentials: [string, string][] = auth
        ? [
            ['u', user.handle],
            ['p', user.key],
          ]
        : [];
      const response = await fetch(`${app().apiUrl}/rest/${method}.view?${new URLSearchParams([['f', 'json'], ...credentials, ...pairs])}`);
      return ((await response.json()) as any)['subsonic-response'];
    }
    const ok = async (method: string, pairs: [string, string][]) => {
      const answer = await call(method, pairs);
      assert.equal(answer.status, 'ok', `${method} ${JSON.stringify(pairs)}: ${JSON.stringify(answer.error)}`);
      return answer;
    };
    const starredSongs = async () => ((await ok('getStarred2', [])).starred2.song ?? []).map((song: { id: string }) => song.id).sort();

    test('ids repeat or come as a comma list, and every one is used (star, unstar, playlists, play queue)', async () => {
      await ok('star', [
        ['id', `${songs[0]},${songs[1]}`],
        ['id', songs[2]!],
      ]);
      assert.deepEqual(await starredSongs(), songs.slice(0, 3).sort());
      await ok('unstar', [['id', `${songs[0]}, ${songs[2]}`]]);
      assert.deepEqual(await starredSongs(), [songs[1]]);

      const created = await ok('createPlaylist', [
        ['name', 'Mixed'],
        ['songId', `${songs[0]},${songs[1]}`],
        ['songId', songs[2]!],
      ]);
      const playlistId: string = created.playlist.id;
      const entries = async () => ((await ok('getPlaylist', [['id', playlistId]])).playlist.entry ?? []).map((song: { id: string }) => song.id);
      assert.deepEqual(await entries(), songs.slice(0, 3));
      await ok('updatePlaylist', [
        ['playlistId', playlistId],
        ['songIdToAdd', `${songs[3]},${songs[4]}`],
        ['songIndexToRemove', '0,2'],
      ]);
      assert.deepEqual(await entries(), [songs[1], songs[3], songs[4]]);

      await ok('savePlayQueue', [
        ['id', `${songs[4]},${songs[3]}`],
        ['current', songs[3]!],
      ]);
      const queue = (await ok('getPlayQueue', [])).playQueue;
      assert.deepEqual([queue.entry.map((song: { id: string }) => song.id), queue.current], [[songs[4], songs[3]], songs[3]]);
    });

    test('an empty value is no value; a malformed optional integer is its default', async () => {
      const list = await ok('getAlbumList2', [
        ['type', 'alphabeticalByName'],
        ['size', ''],
        ['offset', 'x'],
        ['musicFolderId', ''],
      ]);
      assert.equal(list.albumList2.album.length, 3);
      assert.equal(
        (
          await ok('getAlbumList2', [
            ['type', 'alphabeticalByName'],
            ['size', 'ten'],
            ['offset', '+1'],
          ])
        ).albumList2.album.length,
        2,
      );
      assert.equal(
        (
          await ok('getRandomSongs', [
            ['size', 'all'],
            ['genre', ''],
            ['fromYear', ''],
          ])
        ).randomSongs.song.length,
        5,
      );
      const playlist = (
        await ok('createPlaylist', [
          ['name', 'Kept'],
          ['songId', ''],
        ])
      ).playlist;
      assert.equal(playlist.songCount, 0, 'an empty songId adds nothing');
      await ok('updatePlaylist', [
        ['playlistId', playlist.id],
        ['name', ''],
        ['songIdToAdd', ''],
        ['songIndexToRemove', 'first'],
      ]);
      assert.equal((await ok('getPlaylist', [['id', playlist.id]])).playlist.name, 'Kept', 'an empty name renames nothing');
      const listed = (await ok('getPlaylists', [['username', '']])).playlists.playlist.map((entry: { name: string }) => entry.name);
      assert.ok(listed.includes('Kept'), 'an empty username lists the caller');
      await ok('savePlayQueue', [
        ['id', songs[0]!],
        ['current', ''],
        ['position', ''],
      ]);
      assert.equal((await ok('getPlayQueue', [])).playQueue.entry.length, 1);
      const missing = await call('getSong', [['id', '']]);
      assert.deepEqual([missing.status, missing.error.code], ['failed', 10], 'an empty required value is missing (10)');
      const noUser = await call(
        'ping',
        [
          ['u', ''],
          ['p', user.key],
        ],
        false,
      );
      assert.equal(noUser.error.code, 10, 'an empty u is a missing one');
    });

    test('scrobble: each id with its time, in milliseconds or (from a few clients) seconds; a malformed time is now', async () => {
      const inMs = Date.parse('2025-06-01T12:00:00Z');
      const inSeconds = Date.parse('2025-06-02T12:00:00Z') / 1000;
      await ok('scrobble', [
        ['id', songs[0]!],
        ['time', String(inMs)],
        ['id', songs[1]!],
        ['time', String(inSeconds)],
      ]);
      const before = Date.now();
      await ok('scrobble', [
        ['id', songs[2]!],
        ['time', 'noon'],
      ]);
      const stored = await app()
        .ctx.db.selectFrom('scrobbles')
        .select(['track_id', 'listened_at'])
        .where('user_id', '=', user.userId)
        .orderBy('listened_at')
        .execute();
      assert.deepEqual(
        stored.slice(0, 2).map((row) => [row.track_id, row.listened_at.toISOString()]),
        [
          [songs[0], '2025-06-01T12:00:00.000Z'],
          [songs[1], '2025-06-02T12:00:00.000Z'],
        ],
      );
      assert.equal(stored[2]!.track_id, songs[2]);
      assert.ok(stored[2]!.listened_at.getTime() >= before - 1000, 'a malformed time is now');
      assert.equal(
        (
          await call('scrobble', [
            ['id', songs[0]!],
            ['id', songs[1]!],
            ['time', String(inMs)],
          ])
        ).error.code,
        0,
        'two ids, one time',
      );
    });

    test('c and v may be left out; jsonp wraps JSON in the callback, and a callback that is not a plain name gets JSON', async () => {
      assert.equal((await call('getMusicFolders', [])).status, 'ok', 'neither c nor v');
      const query = (callback: string) => new URLSearchParams({ u: user.handle, p: user.key, f: 'jsonp', callback, c: 'player', v: '1.16.1' });
      const wrapped = await fetch(`${app().apiUrl}/rest/ping?${query('player_1.done')}`);
      assert.match(wrapped.headers.get('content-type') ?? '', /^application\/javascript/);
      assert.match(await wrapped.text(), /^player_1\.done\(\{"subsonic-response":\{"status":"ok"/);
      for (const callback of ['alert(1);x', 'a b', '1abc', '']) {
        const plain = await fetch(`${app().apiUrl}/rest/ping?${query(callback)}`);
        assert.match(plain.headers.get('content-type') ?? '', /^application\/json/, JSON.stringify(callback));
        assert.equal(((await plain.json()) as any)['subsonic-response'].status, 'ok');
      }
    });
  },
  {},
  { storage: 'one' },
);
