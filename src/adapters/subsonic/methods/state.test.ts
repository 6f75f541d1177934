import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { LibraryError } from '../../../core/library/errors.ts';
import { callMethod, catalogTracks, librarySource } from '../../../core/library/operations-testing.ts';
import { listenerWithHistory, type TestListener } from '../../../core/scrobbling/testing.ts';
import { describeWithApp, scrobbleCount, type TestApp } from '../../../app/testing.ts';
import { libraryStateMethods } from './state.ts';
import { subsonicCode } from '../error-codes.ts';

const SONGS = ['Alpha', 'Beta', 'Gamma'].map((title, i) => ({
  artist: 'Subsonic Trio',
  title,
  album: 'Greek',
  durationMs: 100_000 + i * 1000,
  trackNumber: i + 1,
}));

async function library(app: TestApp) {
  const ids = await catalogTracks(app, SONGS);
  await librarySource(
    app,
    null,
    ids.map((trackId, i) => ({ path: `Greek/${i + 1}.mp3`, trackId })),
  );
  const row = await app.ctx.db.selectFrom('tracks').select(['album_id', 'artist_id']).where('id', '=', ids[0]!).executeTakeFirstOrThrow();
  return { ids, albumId: row.album_id!, artistId: row.artist_id! };
}

/** The Subsonic error code a call fails with. */
async function failure(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (error) {
    if (error instanceof LibraryError) return subsonicCode(error);
    throw error;
  }
  assert.fail('expected a Subsonic error');
}

describeWithApp('Subsonic library state methods', (app) => {
  const call = (user: TestListener, name: string, query: Record<string, string | string[]> = {}) => callMethod(app(), libraryStateMethods, user, name, query);

  test('star, unstar, getStarred and getStarred2; a starred song is liked in getSongs', async () => {
    const alice = await listenerWithHistory(app(), 'ss-alice');
    const { ids, albumId, artistId } = await library(app());
    assert.deepEqual(await call(alice, 'star', { id: [ids[0]!, ids[1]!], albumId, artistId }), {});
    const starred2 = (await call(alice, 'getStarred2')).starred2;
    assert.deepEqual(
      [starred2.song.map((s: { id: string }) => s.id).sort(), starred2.album[0].id, starred2.artist[0].id],
      [[ids[0], ids[1]].sort(), albumId, artistId],
    );
    const folders = (await call(alice, 'getStarred')).starred;
    assert.deepEqual([folders.song.length, folders.album[0].title, folders.album[0].isDir], [2, 'Greek', true]);
    const liked = async () =>
      (await app().query('app.svc.song.getSongs', {}, alice.token)).body.tracks
        .filter((song: { liked: boolean }) => song.liked)
        .map((song: { id: string }) => song.id)
        .sort();
    assert.deepEqual(await liked(), [ids[0], ids[1]].sort());
    await call(alice, 'unstar', { id: ids[0]!, albumId });
    assert.deepEqual(await liked(), [ids[1]]);
    const after = (await call(alice, 'getStarred2')).starred2;
    assert.deepEqual([after.song.length, after.album.length, after.artist.length], [1, 0, 1]);

    // A folder-based client stars an album or an artist by its id as `id`.
    await call(alice, 'unstar', { artistId, id: ids[1]! });
    await call(alice, 'star', { id: [albumId, artistId] });
    const folderStars = (await call(alice, 'getStarred2')).starred2;
    assert.deepEqual([folderStars.song, folderStars.album[0].id, folderStars.artist[0].id], [[], albumId, artistId]);

    assert.equal(await failure(call(alice, 'star')), 10);
    assert.equal(await failure(call(alice, 'unstar', { id: [albumId, randomUUID()] })), 70);
    assert.equal(await failure(call(alice, 'star', { artistId: 'ar-1' })), 70);
    assert.equal((await call(alice, 'getStarred2')).starred2.album.length, 1, 'a refused unstar removed nothing');
  });

  test('scrobble stores plays idempotently (shown in getFeed); submission=false sets now playing for getNowPlaying', async () => {
    const alice = await listenerWithHistory(app(), 'sc-alice');
    const bob = await listenerWithHistory(app(), 'sc-bob');
    const { ids } = await library(app());
    const time = String(Date.parse('2025-06-01T12:00:00Z'));
    for (let i = 0; i < 2; i++) assert.deepEqual(await call(alice, 'scrobble', { id: ids[0]!, time, submission: 'true' }), {});
    assert.equal(await scrobbleCount(app(), alice.did), 1, 'the same song at the same time is one play');
    await call(alice, 'scrobble', { id: [ids[1]!, ids[2]!], time: [String(Number(time) + 200_000), String(Number(time) + 400_000)] });
    assert.equal(await scrobbleCount(app(), alice.did), 3);
    const feed = (await app().query('app.svc.feed.getFeed', { feed: `earshot:feed:user:${alice.did}` })).body.scrobbles;
    assert.deepEqual(
      feed.map((s: { title: string }) => s.title),
      ['Gamma', 'Beta', 'Alpha'],
    );
    const stored = await app()
      .ctx.db.selectFrom('scrobbles')
      .select(['source', 'listened_at', 'track_id'])
      .where('user_id', '=', alice.userId)
      .orderBy('listened_at')
      .execute();
    assert.deepEqual(
      stored.map((row) => [row.source, row.track_id]),
      ids.map((id) => ['subsonic', id]),
    );
    assert.equal(stored[0]!.listened_at.getTime(), Number(time));
    const tracks = await app().ctx.db.selectFrom('tracks').select('id').where('artist', '=', 'Subsonic Trio').execute();
    assert.equal(tracks.length, 3, 'plays matched the library songs, creating none');

    await call(alice, 'scrobble', { id: ids[2]!, submission: 'false' });
    await call(bob, 'scrobble', { id: ids[1]!, submission: 'false' });
    const entries = (await call(alice, 'getNowPlaying')).nowPlaying.entry;
    assert.deepEqual(
      entries.map((e: { id: string; username: string; minutesAgo: number; playerId: number }) => [e.id, e.username, e.minutesAgo, e.playerId]).sort(),
      [
        [ids[2], 'sc-alice', 0, 0],
        [ids[1], 'sc-bob', 0, 0],
      ].sort(),
    );
    assert.deepEqual(entries.map((e: { title: string }) => e.title).sort(), ['Beta', 'Gamma'], 'each entry is a whole song');
    assert.equal(await scrobbleCount(app(), alice.did), 3, 'now playing stores no play');

    assert.equal(await failure(call(alice, 'scrobble')), 10);
    assert.equal(await failure(call(alice, 'scrobble', { id: [ids[0]!, ids[1]!], time })), 0);
    assert.equal(await failure(call(alice, 'scrobble', { id: randomUUID() })), 70);
    assert.equal(await failure(call(alice, 'scrobble', { id: ids[0]!, time: String(Date.now() + 3 * 86_400_000) })), 0);
    assert.equal(await scrobbleCount(app(), alice.did), 3);
  });

  test('playlists: create, replace, update, list with public ones, delete; another user gets 50 or 70 and changes nothing', async () => {
    const alice = await listenerWithHistory(app(), 'sp-alice');
    const bob = await listenerWithHistory(app(), 'sp-bob');
    const { ids } = await library(app());
    const created = (await call(alice, 'createPlaylist', { name: 'Greek', songId: [ids[0]!, ids[1]!] })).playlist;
    assert.deepEqual(
      [created.name, created.owner, created.songCount, created.duration, created.entry.map((s: { id: string }) => s.id)],
      ['Greek', 'sp-alice', 2, 201, [ids[0], ids[1]]],
    );
    const replaced = (await call(alice, 'createPlaylist', { playlistId: created.id, songId: [ids[2]!, ids[0]!, ids[1]!] })).playlist;
    assert.deepEqual([replaced.id, replaced.name, replaced.entry.map((s: { id: string }) => s.id)], [created.id, 'Greek', [ids[2], ids[0], ids[1]]]);
    assert.deepEqual(
      await call(alice, 'updatePlaylist', {
        playlistId: created.id,
        songIndexToRemove: ['0', '2'],
        songIdToAdd: [ids[2]!, ids[2]!],
        public: 'true',
        comment: 'hi',
      }),
      {},
    );
    const read = async (user = alice) => (await call(user, 'getPlaylist', { id: created.id })).playlist;
    const updated = await read();
    assert.deepEqual([updated.public, updated.comment, updated.entry.map((s: { id: string }) => s.id)], [true, 'hi', [ids[0], ids[2], ids[2]]]);

    await call(bob, 'createPlaylist', { name: 'Bob private' });
    const bobsView = (await call(bob, 'getPlaylists')).playlists.playlist.map((p: { name: string; owner: string }) => [p.name, p.owner]);
    assert.deepEqual(
      bobsView,
      [
        ['Bob private', 'sp-bob'],
        ['Greek', 'sp-alice'],
      ],
      "own first, then others' public ones",
    );
    assert.deepEqual(
      (await call(alice, 'getPlaylists')).playlists.playlist.map((p: { name: string }) => p.name),
      ['Greek'],
      "bob's private one is not listed",
    );
    assert.deepEqual((await call(alice, 'getPlaylists', { username: 'sp-bob' })).playlists.playlist, []);
    assert.deepEqual(
      (await call(bob, 'getPlaylists', { username: 'sp-alice' })).playlists.playlist.map((p: { name: string }) => p.name),
      ['Greek'],
    );

    const before = await read();
    assert.equal(await failure(call(bob, 'updatePlaylist', { playlistId: created.id, name: 'Mine now' })), 50);
    assert.equal(await failure(call(bob, 'createPlaylist', { playlistId: created.id, songId: ids[0]! })), 50);
    assert.equal(await failure(call(bob, 'deletePlaylist', { id: created.id })), 50);
    assert.equal(await failure(call(alice, 'updatePlaylist', { playlistId: created.id, songIndexToRemove: '3', name: 'X' })), 0);
    assert.equal(await failure(call(alice, 'updatePlaylist', { playlistId: created.id, songIdToAdd: 'nope', name: 'X' })), 70);
    assert.equal(await failure(call(alice, 'updatePlaylist', { name: 'X' })), 10);
    assert.equal(await failure(call(alice, 'createPlaylist', { songId: ids[0]! })), 10);
    assert.deepEqual(await read(), before);
    await call(alice, 'updatePlaylist', { playlistId: created.id, public: 'false' });
    const privateBefore = await read();
    assert.equal(await failure(call(bob, 'updatePlaylist', { playlistId: created.id, name: 'Mine now' })), 70);
    assert.equal(await failure(call(bob, 'deletePlaylist', { id: created.id })), 70);
    assert.equal(await failure(call(bob, 'getPlaylist', { id: created.id })), 70);
    assert.deepEqual(await read(), privateBefore);

    assert.deepEqual(await call(alice, 'deletePlaylist', { id: created.id }), {});
    assert.equal(await failure(call(alice, 'getPlaylist', { id: created.id })), 70);
    assert.equal(await failure(call(alice, 'getPlaylist')), 10);
  });

  test('the play queue is one: savePlayQueue is what XRPC getPlaybackQueue reads, and the reverse', async () => {
    const alice = await listenerWithHistory(app(), 'sq-alice');
    const { ids } = await library(app());
    assert.deepEqual(await call(alice, 'savePlayQueue', { id: [ids[0]!, ids[1]!, ids[0]!], current: ids[1]!, position: '61500' }), {});
    const xrpc = (await app().query('app.svc.player.getPlaybackQueue', {}, alice.token)).body.queue;
    assert.deepEqual(
      [xrpc.entry.map((s: { id: string }) => s.id), xrpc.current, xrpc.currentIndex, xrpc.position, xrpc.username, xrpc.changedBy],
      [[ids[0], ids[1], ids[0]], ids[1], 1, 61500, 'sq-alice', 'test-player'],
    );

    await app().procedure('app.svc.player.addItemsToQueue', { ids: ids[2], position: 0 }, alice.token);
    const queue = (await call(alice, 'getPlayQueue')).playQueue;
    assert.deepEqual(
      [queue.entry.map((s: { id: string }) => s.id), queue.current, queue.position, queue.username, queue.changedBy, queue.currentIndex],
      [[ids[2], ids[0], ids[1], ids[0]], ids[1], 61500, 'sq-alice', 'xrpc', undefined],
    );
    assert.match(queue.changed, /^\d{4}-\d{2}-\d{2}T/);

    // Removing items before the current one keeps it current; removing it leaves none.
    // The change answers where the queue stands; its songs are read back.
    const removeAndRead = async (positions: number[]) => {
      const { queue } = (await app().procedure('app.svc.player.removeFromQueue', { positions }, alice.token)).body;
      const songs = (await app().query('app.svc.player.getPlaybackQueue', {}, alice.token)).body.queue.entry.map((s: { id: string }) => s.id);
      return [songs, queue.songCount, queue.current, queue.currentIndex, queue.position];
    };
    assert.deepEqual(await removeAndRead([0, 1]), [[ids[1], ids[0]], 2, ids[1], 0, 61500]);
    assert.deepEqual(await removeAndRead([0]), [[ids[0]], 1, undefined, undefined, 0]);
    await call(alice, 'savePlayQueue', { id: [ids[0]!, ids[1]!, ids[0]!], current: ids[1]!, position: '61500' });

    const unchanged = (await call(alice, 'getPlayQueue')).playQueue;
    assert.deepEqual([unchanged.entry.length, unchanged.current], [3, ids[1]]);
    assert.equal(await failure(call(alice, 'savePlayQueue', { id: [ids[0]!, randomUUID()] })), 70);
    assert.equal(await failure(call(alice, 'savePlayQueue', { id: ids[0]!, current: ids[2]! })), 0);
    assert.equal(await failure(call(alice, 'savePlayQueue', { id: ids[0]!, position: '-5' })), 0);
    assert.deepEqual((await call(alice, 'getPlayQueue')).playQueue, unchanged);

    await call(alice, 'savePlayQueue');
    const cleared = (await app().query('app.svc.player.getPlaybackQueue', {}, alice.token)).body.queue;
    assert.deepEqual([cleared.entry, cleared.current, cleared.position], [[], undefined, 0]);
  });
});
