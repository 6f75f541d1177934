import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { currentNowPlaying } from '../scrobbling/ingest.ts';
import { listenerWithHistory } from '../scrobbling/testing.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { SERVER_VERSION } from './envelope.ts';
import { catalogTracks, librarySource } from './operations-testing.ts';

const L = (name: string) => `app.svc.library.${name}`;
const ENVELOPE = { status: 'ok', version: '1.16.1', type: 'earshot', serverVersion: SERVER_VERSION, openCompat: true };

const SONGS = [
  { artist: 'Ana Moura', title: 'Desfado', album: 'Desfado', durationMs: 200_000 },
  { artist: 'Ana Moura', title: 'Leva-me aos Fados', album: 'Desfado', durationMs: 180_000 },
  { artist: 'Mariza', title: 'Primavera', album: 'Transparente', durationMs: 150_500 },
];

/** Three catalog songs with files in a server-wide source; answers their ids and catalog album/artist ids. */
async function library(app: TestApp) {
  const ids = await catalogTracks(app, SONGS);
  await librarySource(
    app,
    null,
    ids.map((trackId, i) => ({ path: `${SONGS[i]!.album}/${i + 1}.mp3`, trackId })),
  );
  const rows = await app.ctx.db.selectFrom('tracks').select(['id', 'album_id', 'artist_id']).where('id', 'in', ids).execute();
  const track = (id: string) => rows.find((row) => row.id === id)!;
  return { ids, albumId: track(ids[0]!).album_id!, artistId: track(ids[0]!).artist_id! };
}

describeWithApp('library operations', (app) => {
  test('star and unstar songs, albums and artists; a starred song is a liked one in getSongs and getFeed', async () => {
    const alice = await listenerWithHistory(app(), 'star-alice', [{ at: '2024-03-01T10:00:00Z', ...SONGS[0]! }]);
    const { ids, albumId, artistId } = await library(app());
    const liked = async () => {
      const songs = (await app().query('app.svc.song.getSongs', { limit: 100 }, alice.token)).body.tracks;
      const feed = (await app().query('app.svc.feed.getFeed', { feed: `earshot:feed:user:${alice.did}` }, alice.token)).body.scrobbles;
      return [songs.find((song: { id: string }) => song.id === ids[0]).liked, feed[0].liked];
    };

    const starred = await app().procedure(L('star'), { id: ids[0], albumId, artistId: [artistId] }, alice.token);
    assert.equal(starred.status, 200);
    assert.deepEqual(starred.body, ENVELOPE);
    assert.deepEqual(await liked(), [true, true]);
    const all = (await app().query(L('getStarred'), {}, alice.token)).body;
    assert.deepEqual({ ...all, starred: undefined }, { ...ENVELOPE, starred: undefined });
    assert.deepEqual(
      [
        all.starred.song.map((s: { id: string }) => s.id),
        all.starred.album.map((a: { id: string }) => a.id),
        all.starred.artist.map((a: { id: string }) => a.id),
      ],
      [[ids[0]], [albumId], [artistId]],
    );
    assert.match(all.starred.song[0].starred, /^\d{4}-/);
    assert.equal(all.starred.song[0].title, 'Desfado');
    assert.equal(all.starred.album[0].songCount, 2);

    assert.equal((await app().procedure(L('unstar'), { id: [ids[0]] }, alice.token)).status, 200);
    assert.deepEqual(await liked(), [false, false]);
    let after = (await app().query(L('getStarred'), {}, alice.token)).body.starred;
    assert.deepEqual([after.song.length, after.album.length, after.artist.length], [0, 1, 1]);
    assert.equal((await app().procedure(L('unstar'), { albumId, artistId }, alice.token)).status, 200);
    after = (await app().query(L('getStarred'), {}, alice.token)).body.starred;
    assert.deepEqual(after, { artist: [], album: [], song: [] });
  });

  test('star errors: none named 400, unknown ids 404 with nothing written, no credentials 401', async () => {
    const bob = await listenerWithHistory(app(), 'star-bob');
    const { ids } = await library(app());
    const cases: [string, unknown, number][] = [
      [L('star'), {}, 400],
      [L('unstar'), {}, 400],
      [L('star'), { id: 'not-a-song' }, 404],
      [L('star'), { id: ids[1], albumId: randomUUID() }, 404],
      [L('unstar'), { artistId: randomUUID() }, 404],
      [L('star'), { id: 42 }, 400],
    ];
    for (const [nsid, input, status] of cases) {
      const result = await app().procedure(nsid, input, bob.token);
      assert.equal(result.status, status, `${nsid} ${JSON.stringify(input)}`);
      assert.equal(result.body.error, status === 404 ? 'NotFound' : 'InvalidRequest');
    }
    assert.deepEqual((await app().query(L('getStarred'), {}, bob.token)).body.starred.song, [], 'the known song was not starred either');
    for (const nsid of ['star', 'unstar', 'updateNowPlaying', 'createPlaylist', 'updatePlaylist', 'deletePlaylist']) {
      const result = await app().procedure(L(nsid), { id: ids[0] });
      assert.deepEqual([result.status, result.body.error], [401, 'AuthMissing'], nsid);
    }
    for (const nsid of ['getStarred', 'getPlaylists', 'getPlaylist']) assert.equal((await app().query(L(nsid), { id: ids[0]! })).status, 401, nsid);
  });

  test('playlists: create, read, list, update (removals by old index, then additions), delete', async () => {
    const alice = await listenerWithHistory(app(), 'pl-alice');
    const { ids } = await library(app());
    const created = await app().procedure(L('createPlaylist'), { name: 'Fado', songId: [ids[0], ids[1]] }, alice.token);
    assert.equal(created.status, 200);
    const { playlist } = created.body;
    assert.deepEqual({ ...created.body, playlist: undefined }, { ...ENVELOPE, playlist: undefined });
    assert.deepEqual(
      { ...playlist, id: undefined, created: undefined, changed: undefined, entry: playlist.entry.map((song: { id: string }) => song.id) },
      {
        id: undefined,
        name: 'Fado',
        owner: 'pl-alice',
        public: false,
        songCount: 2,
        duration: 380,
        created: undefined,
        changed: undefined,
        entry: [ids[0], ids[1]],
      },
    );
    assert.equal(playlist.entry[0].duration, 200);

    const listed = (await app().query(L('getPlaylists'), {}, alice.token)).body;
    assert.deepEqual({ ...listed, playlists: undefined }, { ...ENVELOPE, playlists: undefined });
    assert.deepEqual(
      listed.playlists.playlist.map((p: { id: string; songCount: number }) => [p.id, p.songCount]),
      [[playlist.id, 2]],
    );
    assert.equal(listed.playlists.playlist[0].entry, undefined, 'a listing has no songs');

    const update = { playlistId: playlist.id, name: 'Fado 2', comment: 'for Sundays', public: true, songIdToAdd: [ids[2], ids[0]], songIndexToRemove: [0] };
    const updated = await app().procedure(L('updatePlaylist'), update, alice.token);
    assert.equal(updated.status, 200);
    assert.deepEqual(updated.body, ENVELOPE, 'no atprotoError: Earshot publishes nowhere');
    const read = async () => (await app().query(L('getPlaylist'), { id: playlist.id }, alice.token)).body.playlist;
    let now = await read();
    assert.deepEqual(
      [now.name, now.comment, now.public, now.songCount, now.entry.map((song: { id: string }) => song.id)],
      ['Fado 2', 'for Sundays', true, 3, [ids[1], ids[2], ids[0]]],
    );
    assert.equal(now.duration, Math.round((180_000 + 150_500 + 200_000) / 1000));
    assert.equal(now.coverArt, undefined, 'no song has a cover yet');
    await app().ctx.db.updateTable('library_files').set({ cover: 'embedded' }).where('track_id', 'in', [ids[2]!, ids[0]!]).execute();
    assert.equal((await read()).coverArt, ids[2], "the first song with a cover stands for the playlist's");

    // Single values instead of lists; indexes are those before the change.
    assert.equal((await app().procedure(L('updatePlaylist'), { playlistId: playlist.id, songIndexToRemove: 2, songIdToAdd: ids[1] }, alice.token)).status, 200);
    now = await read();
    assert.deepEqual(
      now.entry.map((song: { id: string }) => song.id),
      [ids[1], ids[2], ids[1]],
    );
    assert.equal((await app().procedure(L('updatePlaylist'), { playlistId: playlist.id, songIndexToRemove: [0, 1, 2] }, alice.token)).status, 200);
    assert.deepEqual((await read()).entry, []);

    const deleted = await app().procedure(L('deletePlaylist'), { id: playlist.id }, alice.token);
    assert.deepEqual([deleted.status, deleted.body], [200, ENVELOPE]);
    assert.equal((await app().query(L('getPlaylist'), { id: playlist.id }, alice.token)).status, 404);
    assert.deepEqual((await app().query(L('getPlaylists'), {}, alice.token)).body.playlists.playlist, []);
  });

  test("playlist errors change nothing: bad index 400, unknown songs 404, another user's playlist 403 when public and 404 when not", async () => {
    const alice = await listenerWithHistory(app(), 'pl-owner');
    const bob = await listenerWithHistory(app(), 'pl-other');
    const { ids } = await library(app());
    const { playlist } = (await app().procedure(L('createPlaylist'), { name: 'Mine', songId: ids[0] }, alice.token)).body;
    const snapshot = async () => {
      const { changed: _, ...rest } = (await app().query(L('getPlaylist'), { id: playlist.id }, alice.token)).body.playlist;
      return rest;
    };
    const before = await snapshot();
    const attempts: [unknown, string, number, string][] = [
      [{ playlistId: playlist.id, name: 'Renamed', songIndexToRemove: [1] }, alice.token, 400, 'InvalidRequest'],
      [{ playlistId: playlist.id, name: 'Renamed', songIndexToRemove: -1 }, alice.token, 400, 'InvalidRequest'],
      [{ playlistId: playlist.id, name: 'Renamed', songIdToAdd: [ids[1], randomUUID()] }, alice.token, 404, 'NotFound'],
      [{ playlistId: playlist.id, name: '' }, alice.token, 400, 'InvalidRequest'],
      [{ playlistId: randomUUID(), name: 'Renamed' }, alice.token, 404, 'NotFound'],
      [{ playlistId: 'nope', name: 'Renamed' }, alice.token, 404, 'NotFound'],
      [{ name: 'Renamed' }, alice.token, 400, 'InvalidRequest'],
      [{ playlistId: playlist.id, name: 'Renamed' }, bob.token, 404, 'NotFound'],
    ];
    for (const [input, token, status, error] of attempts) {
      const result = await app().procedure(L('updatePlaylist'), input, token);
      assert.deepEqual([result.status, result.body.error], [status, error], JSON.stringify(input));
    }
    const bobDelete = await app().procedure(L('deletePlaylist'), { id: playlist.id }, bob.token);
    assert.equal(bobDelete.status, 404);
    assert.equal((await app().query(L('getPlaylist'), { id: playlist.id }, bob.token)).status, 404, 'a private playlist is not visible to others');
    assert.deepEqual(await snapshot(), before);

    await app().procedure(L('updatePlaylist'), { playlistId: playlist.id, public: true }, alice.token);
    const publicBefore = await snapshot();
    const forbidden = await app().procedure(L('updatePlaylist'), { playlistId: playlist.id, name: 'Taken', songIdToAdd: ids[2] }, bob.token);
    assert.deepEqual([forbidden.status, forbidden.body.error], [403, 'Forbidden']);
    assert.deepEqual([(await app().procedure(L('deletePlaylist'), { id: playlist.id }, bob.token)).status], [403]);
    assert.deepEqual(await snapshot(), publicBefore);
    const asBob = await app().query(L('getPlaylist'), { id: playlist.id }, bob.token);
    assert.deepEqual([asBob.status, asBob.body.playlist.owner], [200, 'pl-owner'], "another user's public playlist is readable");
    assert.deepEqual((await app().query(L('getPlaylists'), {}, bob.token)).body.playlists.playlist, [], 'getPlaylists lists only the caller’s own');

    const badCreate: [unknown, number][] = [
      [{ songId: ids[0] }, 400],
      [{ name: 'X', songId: [ids[0], 'nope'] }, 404],
      [{ name: 'X', songId: [randomUUID()] }, 404],
    ];
    for (const [input, status] of badCreate)
      assert.equal((await app().procedure(L('createPlaylist'), input, alice.token)).status, status, JSON.stringify(input));
    assert.equal((await app().query(L('getPlaylists'), {}, alice.token)).body.playlists.playlist.length, 1, 'refused creations wrote nothing');
  });

  test('updateNowPlaying sets the song playing now from its catalog metadata', async () => {
    const alice = await listenerWithHistory(app(), 'np-alice');
    const { ids } = await library(app());
    const result = await app().procedure(L('updateNowPlaying'), { id: ids[2] }, alice.token);
    assert.deepEqual([result.status, result.body], [200, ENVELOPE]);
    assert.equal((await currentNowPlaying(app().ctx, alice.userId))?.trackId, ids[2]);
    assert.equal((await app().procedure(L('updateNowPlaying'), { id: randomUUID() }, alice.token)).status, 404);
    assert.equal((await app().procedure(L('updateNowPlaying'), {}, alice.token)).status, 400);
    assert.equal((await currentNowPlaying(app().ctx, alice.userId))?.trackId, ids[2]);
    const tracks = await app().ctx.db.selectFrom('tracks').select('id').where('title', '=', 'Primavera').execute();
    assert.equal(tracks.length, 1, 'now playing matched the same song, creating none');
  });
});
