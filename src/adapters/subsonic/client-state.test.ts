import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { subsonicClient, subsonicUser } from './client-testing.ts';
import { createTestLibrary, type TestLibrary } from './library-testing.ts';

const OPENING = 'The Alpha Band/First Album/01 Opening.mp3';
const BLUE = 'Beta/Blue Record/1-01 Blue.mp3';

/** The library state methods (methods/state.ts) as a Subsonic player reaches them: the npm client through /rest. */
describeWithApp('Subsonic REST: library state through the npm client', (app) => {
  let user: Awaited<ReturnType<typeof subsonicUser>>;
  let library: TestLibrary;
  let client: ReturnType<typeof subsonicClient>;
  const track = (path: string) => library.tracks.get(path)!;

  before(async () => {
    user = await subsonicUser(app(), 'player');
    library = await createTestLibrary(app().ctx.db);
    client = subsonicClient(app(), { username: user.handle, password: user.key });
  });
  after(() => library.remove());

  test('a scrobble shows up in getFeed', async () => {
    const time = Date.now() - 60_000;
    assert.equal((await client.scrobble({ id: track(OPENING), submission: true, time })).status, 'ok');
    const feed = (await app().query('app.svc.feed.getFeed', { feed: `earshot:feed:user:${user.did}` }, user.token)).body.scrobbles;
    assert.deepEqual(
      feed.map((item: { title: string }) => item.title),
      ['Opening'],
    );
  });

  test('a starred song is liked; getStarred2 lists it', async () => {
    assert.equal((await client.star({ id: track(BLUE) })).status, 'ok');
    const starred = (await client.getStarred2()).starred2.song ?? [];
    assert.deepEqual(
      starred.map((song) => song.title),
      ['Blue'],
    );
    const songs = (await app().query('app.svc.song.getSongs', { limit: 100 }, user.token)).body.tracks as { title: string; liked: boolean }[];
    assert.deepEqual(
      songs.filter((song) => song.liked).map((song) => song.title),
      ['Blue'],
    );
  });

  test('playlists round trip', async () => {
    const created = await client.createPlaylist({ name: 'Mix', songId: [track(BLUE), track(OPENING)] } as never);
    assert.equal(created.status, 'ok');
    const listed = (await client.getPlaylists()).playlists.playlist ?? [];
    const mix = listed.find((playlist) => playlist.name === 'Mix')!;
    assert.equal(mix.songCount, 2);
    assert.equal((await client.updatePlaylist({ playlistId: mix.id, songIndexToRemove: 0, name: 'Mix 2' } as never)).status, 'ok');
    const playlist = (await client.getPlaylist({ id: mix.id })).playlist;
    assert.equal(playlist.name, 'Mix 2');
    assert.deepEqual(
      playlist.entry?.map((song) => song.title),
      ['Opening'],
    );
    assert.equal((await client.deletePlaylist({ id: mix.id })).status, 'ok');
    assert.deepEqual((await client.getPlaylists()).playlists.playlist ?? [], []);
  });

  test('the play queue a player saves is the one it gets back', async () => {
    const saved = await client.savePlayQueue({ id: [track(OPENING), track(BLUE)], current: track(BLUE), position: 12_000 } as never);
    assert.equal(saved.status, 'ok');
    const queue = (await client.getPlayQueue()).playQueue!;
    assert.deepEqual(
      queue.entry?.map((song) => song.title),
      ['Opening', 'Blue'],
    );
    assert.equal(queue.current, track(BLUE));
    assert.equal(queue.position, 12_000);
  });
});
