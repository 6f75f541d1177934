import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeWithApp, jsonRequest } from '../../app/testing.ts';
import { createClientAccount, type ClientAccount } from '../../adapters/lastfm/lastfm-testing.ts';
import { TAG_READER_VERSION } from '../library/tags.ts';

/** Catalog listings show songs someone played or has in a library, not every track a client mentioned. */
describeWithApp('catalog listings', (app) => {
  let client: ClientAccount;
  const submit = (body: unknown) => jsonRequest(`${app().scrobblerUrl}/1/submit-listens`, 'POST', { body, headers: { authorization: `Token ${client.key}` } });
  const track = (title: string) => ({ artist_name: 'Nowplaying Only', track_name: title, release_name: 'Unplayed Album' });
  const songTitles = async () => ((await app().query('app.svc.song.getSongs', { limit: 100 })).body.tracks as { title: string }[]).map((song) => song.title);
  const search = async (q: string) => (await app().query('app.svc.feed.search', { q })).body;

  before(async () => {
    client = await createClientAccount(app(), 'lister');
  });

  test('a playing_now report alone lists no song, artist or album; its first play does', async () => {
    assert.equal((await submit({ listen_type: 'playing_now', payload: [{ track_metadata: track('Heard Once') }] })).status, 200);
    const trackRow = await app().ctx.db.selectFrom('tracks').select(['id', 'artist_id']).where('title', '=', 'Heard Once').executeTakeFirstOrThrow();
    assert.ok(!(await songTitles()).includes('Heard Once'), 'getSongs');
    const found = await search('Nowplaying Only');
    assert.deepEqual([found.songs.length, found.artists.length, (await search('Unplayed Album')).albums.length], [0, 0, 0], 'search');
    const artist = await app().query('app.svc.artist.getArtist', { id: trackRow.artist_id! });
    assert.deepEqual([artist.body.topSongs.length, artist.body.topAlbums.length], [0, 0], 'getArtist');

    const listenedAt = Math.floor(Date.now() / 1000) - 60;
    assert.equal((await submit({ listen_type: 'single', payload: [{ listened_at: listenedAt, track_metadata: track('Heard Once') }] })).status, 200);
    assert.ok((await songTitles()).includes('Heard Once'));
    const after = await search('Nowplaying Only');
    assert.deepEqual([after.songs.length, after.artists.length, (await search('Unplayed Album')).albums.length], [1, 1, 1]);
    assert.equal((await app().query('app.svc.artist.getArtist', { id: trackRow.artist_id! })).body.topSongs.length, 1);
  });

  test('a song in a library file is listed without plays', async () => {
    assert.equal((await submit({ listen_type: 'playing_now', payload: [{ track_metadata: track('In The Library') }] })).status, 200);
    assert.ok(!(await songTitles()).includes('In The Library'));
    const { id } = await app().ctx.db.selectFrom('tracks').select('id').where('title', '=', 'In The Library').executeTakeFirstOrThrow();
    const db = app().ctx.db;
    const source = await db
      .insertInto('library_sources')
      .values({ kind: 'filehostA', user_id: client.userId, name: 'filehostA', root: '/' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const root = await db
      .insertInto('library_directories')
      .values({ source_id: source.id, user_id: client.userId, name: '', path: '' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('library_files')
      .values({
        source_id: source.id,
        user_id: client.userId,
        directory_id: root.id,
        name: 'song.flac',
        path: 'Music/song.flac',
        track_id: id,
        size: 1,
        modified_at: new Date(),
        content_type: 'audio/flac',
        tag_reader: TAG_READER_VERSION,
        suffix: 'flac',
      })
      .execute();
    assert.ok((await songTitles()).includes('In The Library'));
  });
});
