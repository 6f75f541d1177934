import assert from 'node:assert/strict';
import { test } from 'node:test';
import { subsonicUser } from '../../adapters/subsonic/client-testing.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { MAX_PLAYLIST_SONGS, MAX_PLAYLISTS, MAX_QUEUE_SONGS } from './limits.ts';
import { catalogTracks, librarySource } from './operations-testing.ts';

/** Three catalog songs in a server-wide source's folder "Three". */
async function songs(app: TestApp): Promise<string[]> {
  const ids = await catalogTracks(
    app,
    ['One', 'Two', 'Three'].map((title) => ({ artist: 'Limit Band', title, album: 'Limits' })),
  );
  await librarySource(
    app,
    null,
    ids.map((trackId, i) => ({ path: `Three/${i}.mp3`, trackId })),
  );
  return ids;
}

/** `count` song ids cycling through `ids`, so long lists need only a few catalog songs. */
const cycle = (ids: readonly string[], count: number) => Array.from({ length: count }, (_, i) => ids[i % ids.length]!);

/** A Subsonic call as a form POST (long id lists do not fit a URL); answers the `subsonic-response`. */
async function restPost(app: TestApp, user: { handle: string; key: string }, method: string, params: [string, string][]): Promise<any> {
  const body = new URLSearchParams([['u', user.handle], ['p', user.key], ['c', 'limits-test'], ['f', 'json'], ...params]);
  const response = await fetch(`${app.apiUrl}/rest/${method}.view`, { method: 'POST', body });
  return ((await response.json()) as any)['subsonic-response'];
}

const P = (name: string) => `app.svc.player.${name}`;

describeWithApp('queue and playlist limits', (app) => {
  test(`the queue holds at most ${MAX_QUEUE_SONGS} songs: every way in refuses more whole and accepts exactly that many`, async () => {
    const alice = await subsonicUser(app(), 'lim-queue');
    const ids = await songs(app());
    const full = cycle(ids, MAX_QUEUE_SONGS);

    const over = await restPost(
      app(),
      alice,
      'savePlayQueue',
      [...full, ids[0]!].map((id) => ['id', id]),
    );
    assert.deepEqual([over.status, over.error.code], ['failed', 0]);
    assert.match(over.error.message, new RegExp(`limited to ${MAX_QUEUE_SONGS}; this change would make it ${MAX_QUEUE_SONGS + 1}`));
    const saved = await restPost(app(), alice, 'savePlayQueue', [...full.map((id): [string, string] => ['id', id]), ['current', ids[1]!]]);
    assert.equal(saved.status, 'ok', JSON.stringify(saved));
    const whole = (await restPost(app(), alice, 'getPlayQueue', [])).playQueue;
    assert.deepEqual([whole.entry.length, whole.current], [MAX_QUEUE_SONGS, ids[1]], 'Subsonic answers the queue whole');

    const before = (await app().query(P('getPlaybackQueue'), {}, alice.token)).body.queue;
    const refused = [
      await app().procedure(P('addItemsToQueue'), { ids: ids[0] }, alice.token),
      await app().procedure(P('addItemsToQueue'), { ids: [ids[0], ids[1]], position: 0 }, alice.token),
      await app().request('POST', `/xrpc/${P('addDirectoryToQueue')}?directory=Three`, { token: alice.token }),
    ];
    assert.deepEqual(
      refused.map((result) => [result.status, result.body.error]),
      [
        [400, 'InvalidRequest'],
        [400, 'InvalidRequest'],
        [400, 'InvalidRequest'],
      ],
    );
    assert.match(refused[0]!.body.message, new RegExp(`the play queue is limited to ${MAX_QUEUE_SONGS}; this change would make it ${MAX_QUEUE_SONGS + 1}`));
    assert.match(refused[2]!.body.message, new RegExp(`would make it ${MAX_QUEUE_SONGS + 3}`));
    assert.deepEqual((await app().query(P('getPlaybackQueue'), {}, alice.token)).body.queue, before, 'nothing was written');

    // Back under the limit, an insertion that reaches it exactly is taken, and the current song follows it.
    assert.equal((await app().procedure(P('removeFromQueue'), { positions: [0, 2] }, alice.token)).status, 200);
    const added = await app().procedure(P('addItemsToQueue'), { ids: [ids[2], ids[2]], position: 0 }, alice.token);
    assert.equal(added.status, 200);
    assert.deepEqual([added.body.queue.songCount, added.body.queue.current, added.body.queue.currentIndex], [MAX_QUEUE_SONGS, ids[1], 2]);
    const head = (await app().query(P('getPlaybackQueue'), { limit: 5 }, alice.token)).body.queue.entry.map((song: { id: string }) => song.id);
    assert.deepEqual(head, [ids[2], ids[2], ids[1], ids[0], ids[1]]);

    // A queue saved before there was a limit: Subsonic answers its first MAX_QUEUE_SONGS, XRPC pages to its end.
    await app().ctx.db.insertInto('queue_items').values({ user_id: alice.userId, position: MAX_QUEUE_SONGS, track_id: ids[0]! }).execute();
    assert.equal((await restPost(app(), alice, 'getPlayQueue', [])).playQueue.entry.length, MAX_QUEUE_SONGS);
    const tail = (await app().query(P('getPlaybackQueue'), { offset: MAX_QUEUE_SONGS }, alice.token)).body.queue;
    assert.deepEqual([tail.songCount, tail.entry.length], [MAX_QUEUE_SONGS + 1, 1]);
  });

  test(`a playlist holds at most ${MAX_PLAYLIST_SONGS} songs, on Subsonic and XRPC alike`, async () => {
    const alice = await subsonicUser(app(), 'lim-list');
    const ids = await songs(app());
    const full = cycle(ids, MAX_PLAYLIST_SONGS);
    const songIds = (list: readonly string[]) => list.map((id): [string, string] => ['songId', id]);
    const playlists = async () => (await restPost(app(), alice, 'getPlaylists', [])).playlists.playlist ?? [];

    const over = await restPost(app(), alice, 'createPlaylist', [['name', 'Too long'], ...songIds([...full, ids[0]!])]);
    assert.deepEqual([over.status, over.error.code], ['failed', 0]);
    assert.match(over.error.message, new RegExp(`a playlist is limited to ${MAX_PLAYLIST_SONGS}; this change would make it ${MAX_PLAYLIST_SONGS + 1}`));
    assert.deepEqual(await playlists(), [], 'no playlist was made');

    const created = await restPost(app(), alice, 'createPlaylist', [['name', 'Full'], ...songIds(full)]);
    assert.deepEqual([created.status, created.playlist.songCount], ['ok', MAX_PLAYLIST_SONGS]);
    const id = created.playlist.id;
    const replaced = await restPost(app(), alice, 'createPlaylist', [['playlistId', id], ...songIds([...full, ids[0]!])]);
    assert.equal(replaced.error?.code, 0);
    const appended = await restPost(app(), alice, 'updatePlaylist', [
      ['playlistId', id],
      ['songIdToAdd', ids[0]!],
    ]);
    assert.equal(appended.error?.code, 0);
    const xrpc = await app().procedure('app.svc.library.updatePlaylist', { playlistId: id, songIdToAdd: ids[0], name: 'Renamed' }, alice.token);
    assert.deepEqual([xrpc.status, xrpc.body.error], [400, 'InvalidRequest']);
    assert.match(xrpc.body.message, /a playlist is limited to/);
    assert.deepEqual(
      (await playlists()).map((p: { name: string; songCount: number }) => [p.name, p.songCount]),
      [['Full', MAX_PLAYLIST_SONGS]],
      'nothing was written',
    );

    // Removing as many as are added keeps it at the limit: taken, in order.
    const swapped = await app().procedure(
      'app.svc.library.updatePlaylist',
      { playlistId: id, songIndexToRemove: [0, 1], songIdToAdd: [ids[2], ids[0]] },
      alice.token,
    );
    assert.equal(swapped.status, 200, JSON.stringify(swapped.body));
    const entry = (await app().query('app.svc.library.getPlaylist', { id }, alice.token)).body.playlist.entry.map((song: { id: string }) => song.id);
    assert.deepEqual([entry.length, entry.slice(0, 2), entry.slice(-3)], [MAX_PLAYLIST_SONGS, [ids[2], ids[0]], [ids[1], ids[2], ids[0]]]);
  });

  test(`a user owns at most ${MAX_PLAYLISTS} playlists`, async () => {
    const alice = await subsonicUser(app(), 'lim-many');
    // All but one made directly: the limit is what is tested, not a thousand requests.
    const rows = Array.from({ length: MAX_PLAYLISTS - 1 }, (_, i) => ({ user_id: alice.userId, name: `List ${i}` }));
    await app().ctx.db.insertInto('playlists').values(rows).execute();
    const last = await app().procedure('app.svc.library.createPlaylist', { name: 'The last one' }, alice.token);
    assert.equal(last.status, 200, JSON.stringify(last.body));
    const refused = await app().procedure('app.svc.library.createPlaylist', { name: 'One too many' }, alice.token);
    assert.deepEqual([refused.status, refused.body.error], [400, 'InvalidRequest']);
    assert.match(refused.body.message, new RegExp(`playlists per user is limited to ${MAX_PLAYLISTS}; this change would make it ${MAX_PLAYLISTS + 1}`));
    const subsonic = await restPost(app(), alice, 'createPlaylist', [['name', 'Also too many']]);
    assert.equal(subsonic.error?.code, 0);
    const { n } = await app()
      .ctx.db.selectFrom('playlists')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', alice.userId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(n), MAX_PLAYLISTS);
  });
});
