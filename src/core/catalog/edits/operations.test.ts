import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { ingestListens, type Listen } from '../../scrobbling/index.ts';
import { describeWithApp, type TestApp } from '../../../app/testing.ts';
import { TAG_READER_VERSION } from '../../library/tags.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface Account {
  id: string;
  token: string;
}

async function account(app: TestApp, handle: string): Promise<Account> {
  const { did, token } = await app.signup(handle);
  const { id } = await app.ctx.db.selectFrom('users').select('id').where('did', '=', did).executeTakeFirstOrThrow();
  return { id, token };
}

async function play(app: TestApp, user: Account, listens: Array<Partial<Listen> & { title: string; artist: string; at: string }>) {
  const outcomes = await ingestListens(
    app.ctx,
    user.id,
    listens.map(({ at, ...listen }) => ({ ...listen, listenedAt: new Date(at) })),
    'api',
  );
  return outcomes.map((outcome) => (outcome.status === 'ignored' ? assert.fail(outcome.reason) : outcome.trackId));
}

const SNAPSHOT_TABLES = [
  'artists',
  'albums',
  'tracks',
  'scrobbles',
  'stars',
  'song_dislikes',
  'playlist_items',
  'queue_items',
  'library_files',
  'catalog_aliases',
];

/** Every row of the tables an edit may touch, exactly (to_jsonb keeps microseconds). */
async function snapshot(app: TestApp): Promise<Record<string, string[]>> {
  const result: Record<string, string[]> = {};
  for (const table of SNAPSHOT_TABLES) {
    const { rows } = await sql<{ row: string }>`select to_jsonb(t)::text as row from ${sql.table(table)} t`.execute(app.ctx.db);
    result[table] = rows.map((row) => row.row).sort();
  }
  return result;
}

function ok(result: { status: number; body: any }) {
  assert.equal(result.status, 200, JSON.stringify(result.body));
  return result.body;
}

/** A library file holding the track, under a fresh local source. */
async function addFile(app: TestApp, trackId: string, name: string) {
  const db = app.ctx.db;
  const source = await db
    .insertInto('library_sources')
    .values({ kind: 'local', name, root: `/music/${name}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const directory = await db.insertInto('library_directories').values({ source_id: source.id, name: '', path: '' }).returning('id').executeTakeFirstOrThrow();
  await db
    .insertInto('library_files')
    .values({
      source_id: source.id,
      directory_id: directory.id,
      name: `${name}.mp3`,
      path: `${name}.mp3`,
      track_id: trackId,
      size: 1,
      modified_at: new Date(),
      content_type: 'audio/mpeg',
      tag_reader: TAG_READER_VERSION,
      suffix: 'mp3',
    })
    .execute();
}

const trackOf = async (app: TestApp, id: string) => app.ctx.db.selectFrom('tracks').selectAll().where('id', '=', id).executeTakeFirst();

describeWithApp('catalog edits: merge, fix, undo', (app) => {
  let admin: Account;
  let bob: Account;

  test('the first account is admin; others are not until promoted', async () => {
    admin = await account(app(), 'root');
    bob = await account(app(), 'bob');
    const flags = await app().ctx.db.selectFrom('users').select(['handle', 'admin']).orderBy('handle').execute();
    assert.deepEqual(flags, [
      { handle: 'bob', admin: false },
      { handle: 'root', admin: true },
    ]);
  });

  test('a non-admin is refused with 403 and nothing changes', async () => {
    const [a, b] = await play(app(), bob, [
      { artist: 'Nobody', title: 'One', at: '2024-01-01T00:00:00Z' },
      { artist: 'Nobody', title: 'Two', at: '2024-01-01T00:05:00Z' },
    ]);
    const before = await snapshot(app());
    for (const [nsid, input] of [
      ['app.svc.song.mergeSongs', { from: a, into: b }],
      ['app.svc.song.updateSong', { id: a, title: 'Uno' }],
      ['app.svc.catalog.undoEdit', { id: 1 }],
    ] as const) {
      const refused = await app().procedure(nsid, input, bob.token);
      assert.equal(refused.status, 403, nsid);
      assert.equal(refused.body.error, 'Forbidden');
      assert.match(refused.body.message, /admin/);
    }
    assert.equal((await app().query('app.svc.catalog.getEdits', {}, bob.token)).status, 403);
    assert.deepEqual(await snapshot(app()), before);
  });

  test('merging songs moves plays (a same-time duplicate kept once), likes, playlist items, queue items and files; undo restores every row', async () => {
    const [typo, right] = await play(app(), bob, [
      { artist: 'Massive Attack', title: 'Teardorp', at: '2024-02-01T10:00:00Z' },
      { artist: 'Massive Attack', title: 'Teardrop', at: '2024-02-01T11:00:00Z' },
    ]);
    // The same listen, once under each spelling: after the merge it is one play.
    await play(app(), bob, [
      { artist: 'Massive Attack', title: 'Teardorp', at: '2024-02-02T10:00:00Z' },
      { artist: 'Massive Attack', title: 'Teardrop', at: '2024-02-02T10:00:00Z' },
    ]);
    await play(app(), admin, [{ artist: 'Massive Attack', title: 'Teardorp', at: '2024-02-03T10:00:00Z' }]);
    ok(await app().procedure('app.svc.song.likeSong', { id: typo }, bob.token));
    ok(await app().procedure('app.svc.song.likeSong', { id: right }, bob.token));
    ok(await app().procedure('app.svc.song.likeSong', { id: typo }, admin.token));
    ok(await app().procedure('app.svc.library.createPlaylist', { name: 'Trip', songId: [typo!, right!] }, bob.token));
    await app().ctx.db.insertInto('queue_items').values({ user_id: bob.id, position: 0, track_id: typo! }).execute();
    await addFile(app(), typo!, 'teardorp');
    // ListenBrainz "hate" feedback (song_dislikes) follows the song as likes do.
    await app().ctx.db.insertInto('song_dislikes').values({ user_id: admin.id, track_id: typo! }).execute();
    const before = await snapshot(app());

    const { editId } = ok(await app().procedure('app.svc.song.mergeSongs', { from: typo, into: right }, admin.token));
    const dislikes = await app().ctx.db.selectFrom('song_dislikes').select('track_id').execute();
    assert.deepEqual(
      dislikes.map((row) => row.track_id),
      [right],
    );
    const plays = await app().ctx.db.selectFrom('scrobbles').select(['track_id']).where('track_id', 'in', [typo!, right!]).execute();
    assert.deepEqual(
      plays.map((row) => row.track_id),
      [right, right, right, right],
    );
    const song = ok(await app().query('app.svc.song.getSong', { id: typo! }, bob.token)).song;
    assert.equal(song.id, right, 'the merged-away id resolves to the survivor');
    assert.equal(song.playCount, 4);
    assert.equal(song.likesCount, 2);
    const items = await app().ctx.db.selectFrom('playlist_items').select('track_id').orderBy('position').execute();
    assert.deepEqual(
      items.map((row) => row.track_id),
      [right, right],
    );
    const moved = async (table: 'queue_items' | 'library_files') =>
      (await app().ctx.db.selectFrom(table).select('track_id').execute()).map((row) => row.track_id);
    assert.deepEqual(await moved('queue_items'), [right]);
    assert.deepEqual(await moved('library_files'), [right]);
    assert.equal(await trackOf(app(), typo!), undefined);

    // The old spelling scrobbled again lands on the survivor instead of re-creating the typo.
    const [again] = await play(app(), bob, [{ artist: 'Massive Attack', title: 'Teardorp', at: '2024-02-04T10:00:00Z' }]);
    assert.equal(again, right);
    await app().ctx.db.deleteFrom('scrobbles').where('listened_at', '=', new Date('2024-02-04T10:00:00Z')).execute();

    ok(await app().procedure('app.svc.catalog.undoEdit', { id: editId }, admin.token));
    assert.deepEqual(await snapshot(app()), before);
    const again2 = await app().procedure('app.svc.catalog.undoEdit', { id: editId }, admin.token);
    assert.equal(again2.status, 409);
    assert.equal(again2.body.error, 'UndoConflict');
  });

  test('merging artists moves their songs, albums and likes; the old name scrobbled again finds the survivor; undo restores', async () => {
    const [typo] = await play(app(), bob, [{ artist: 'Radiohaed', title: 'Airbag', album: 'OK Computer', at: '2024-03-01T10:00:00Z' }]);
    const [right] = await play(app(), bob, [{ artist: 'Radiohead', title: 'Karma Police', album: 'OK Computer', at: '2024-03-01T11:00:00Z' }]);
    const from = (await trackOf(app(), typo!))!.artist_id!;
    const into = (await trackOf(app(), right!))!.artist_id!;
    await app()
      .ctx.db.insertInto('stars')
      .values({ user_id: bob.id, subject_kind: 'artist', subject_id: from })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const before = await snapshot(app());

    const { editId } = ok(await app().procedure('app.svc.artist.mergeArtists', { from, into }, admin.token));
    const airbag = (await trackOf(app(), typo!))!;
    assert.equal(airbag.artist_id, into);
    assert.equal(airbag.artist, 'Radiohead');
    const artist = ok(await app().query('app.svc.artist.getArtist', { id: from }, bob.token)).artist;
    assert.equal(artist.id, into);
    assert.equal(artist.name, 'Radiohead');
    const stars = await app().ctx.db.selectFrom('stars').select('subject_id').where('subject_kind', '=', 'artist').execute();
    assert.deepEqual(
      stars.map((row) => row.subject_id),
      [into],
    );
    const [again] = await play(app(), bob, [{ artist: 'Radiohaed', title: 'Airbag', at: '2024-03-02T10:00:00Z' }]);
    assert.equal(again, typo, 'the old spelling finds the moved song');
    const [fresh] = await play(app(), bob, [{ artist: 'Radiohaed', title: 'Lucky', at: '2024-03-02T11:00:00Z' }]);
    assert.equal((await trackOf(app(), fresh!))!.artist_id, into, 'a new song of the old spelling goes under the survivor');
    await app().ctx.db.deleteFrom('scrobbles').where('track_id', 'in', [typo!, fresh!]).where('listened_at', '>=', new Date('2024-03-02T00:00:00Z')).execute();
    await app().ctx.db.deleteFrom('tracks').where('id', '=', fresh!).execute();

    ok(await app().procedure('app.svc.catalog.undoEdit', { id: editId }, admin.token));
    assert.deepEqual(await snapshot(app()), before);
  });

  test('merging albums moves their tracks; the old id resolves; undo restores', async () => {
    const [one] = await play(app(), bob, [{ artist: 'Bjork', title: 'Joga', album: 'Homogenic', at: '2024-04-01T10:00:00Z' }]);
    const [two] = await play(app(), bob, [{ artist: 'Bjork', title: 'Bachelorette', album: 'Homogenik', at: '2024-04-01T11:00:00Z' }]);
    const into = (await trackOf(app(), one!))!.album_id!;
    const from = (await trackOf(app(), two!))!.album_id!;
    const before = await snapshot(app());
    const { editId } = ok(await app().procedure('app.svc.album.mergeAlbums', { from, into }, admin.token));
    const album = ok(await app().query('app.svc.album.getAlbum', { id: from }, bob.token));
    assert.equal(album.album.id, into);
    assert.deepEqual(album.tracks.map((track: { id: string }) => track.id).sort(), [one, two].sort());
    assert.equal((await trackOf(app(), two!))!.album, 'Homogenic');
    ok(await app().procedure('app.svc.catalog.undoEdit', { id: editId }, admin.token));
    assert.deepEqual(await snapshot(app()), before);
  });

  test('renaming fixes the name and its key; both spellings match afterwards; a later edit blocks undoing an earlier one', async () => {
    const [song] = await play(app(), bob, [{ artist: 'Portishaed', title: 'Roads', at: '2024-05-01T10:00:00Z' }]);
    const artistId = (await trackOf(app(), song!))!.artist_id!;
    const before = await snapshot(app());
    const rename = ok(
      await app().procedure(
        'app.svc.artist.updateArtist',
        { id: artistId, name: 'Portishead', mbid: '8f6bd1e4-fbe1-4f50-aa9b-94c450ec0f11', genres: ['trip hop'] },
        admin.token,
      ),
    );
    assert.equal((await trackOf(app(), song!))!.artist, 'Portishead');
    const [byNewName] = await play(app(), bob, [{ artist: 'portishead', title: 'Roads', at: '2024-05-02T10:00:00Z' }]);
    const [byOldName] = await play(app(), bob, [{ artist: 'Portishaed', title: 'Roads', at: '2024-05-03T10:00:00Z' }]);
    assert.deepEqual([byNewName, byOldName], [song, song]);
    await app().ctx.db.deleteFrom('scrobbles').where('track_id', '=', song!).where('listened_at', '>', new Date('2024-05-01T12:00:00Z')).execute();

    const retitle = ok(await app().procedure('app.svc.song.updateSong', { id: song, title: 'Roads (Live)', bpm: 70 }, admin.token));
    const blocked = await app().procedure('app.svc.catalog.undoEdit', { id: rename.editId }, admin.token);
    assert.equal(blocked.status, 409);
    assert.match(blocked.body.message, new RegExp(`edit ${retitle.editId}`));

    const log = ok(await app().query('app.svc.catalog.getEdits', { limit: 2 }, admin.token));
    assert.deepEqual(
      log.edits.map((edit: { id: number }) => edit.id),
      [retitle.editId, rename.editId],
    );
    assert.equal(log.edits[1].handle, 'root');
    assert.equal(log.edits[1].kind, 'updateArtist');
    assert.match(log.edits[1].summary, /"Portishaed" → "Portishead"/);
    const older = ok(await app().query('app.svc.catalog.getEdits', { limit: 2, cursor: log.cursor }, admin.token));
    assert.ok(older.edits.every((edit: { id: number }) => edit.id < rename.editId));

    ok(await app().procedure('app.svc.catalog.undoEdit', { id: retitle.editId }, admin.token));
    ok(await app().procedure('app.svc.catalog.undoEdit', { id: rename.editId }, admin.token));
    assert.deepEqual(await snapshot(app()), before);
  });

  test('bad input is 400, unknown ids 404, a taken name 409; nothing is logged', async () => {
    const [a, b] = await play(app(), bob, [
      { artist: 'Air', title: 'La Femme', at: '2024-06-01T10:00:00Z' },
      { artist: 'Air', title: 'Sexy Boy', at: '2024-06-01T11:00:00Z' },
    ]);
    const count = async () => (await app().ctx.db.selectFrom('catalog_edits').select('id').execute()).length;
    const edits = await count();
    const cases: [string, unknown, number][] = [
      ['app.svc.song.mergeSongs', { from: a, into: a }, 400],
      ['app.svc.song.mergeSongs', { from: a }, 400],
      ['app.svc.song.mergeSongs', { from: 'nope', into: b }, 400],
      ['app.svc.song.mergeSongs', { from: UNKNOWN_ID, into: b }, 404],
      ['app.svc.artist.mergeArtists', { from: UNKNOWN_ID, into: UNKNOWN_ID.replace('0000-4', '0001-4') }, 404],
      ['app.svc.song.updateSong', { id: a }, 400],
      ['app.svc.song.updateSong', { id: a, title: '   ' }, 400],
      ['app.svc.song.updateSong', { id: a, title: 'x\u0000y' }, 400],
      ['app.svc.song.updateSong', { id: a, mbid: 'not-an-mbid' }, 400],
      ['app.svc.song.updateSong', { id: a, duration: -1 }, 400],
      ['app.svc.song.updateSong', { id: a, colour: 'red' }, 400],
      ['app.svc.song.updateSong', { id: UNKNOWN_ID, title: 'x' }, 404],
      ['app.svc.song.updateSong', { id: a, title: 'sexy boy' }, 409],
      ['app.svc.catalog.undoEdit', { id: 999999 }, 404],
    ];
    for (const [nsid, input, status] of cases) {
      const result = await app().procedure(nsid, input, admin.token);
      assert.equal(result.status, status, `${nsid} ${JSON.stringify(input)}: ${JSON.stringify(result.body)}`);
      assert.ok(result.body.message, 'a message says why');
    }
    assert.equal(await count(), edits);
  });

  test('a promoted user may edit; a demoted one may not', async () => {
    const { setAdmin } = await import('../../auth/index.ts');
    const [song] = await play(app(), bob, [{ artist: 'Moby', title: 'Porcelian', at: '2024-07-01T10:00:00Z' }]);
    assert.equal(await setAdmin(app().ctx.db, 'bob', true), true);
    ok(await app().procedure('app.svc.song.updateSong', { id: song, title: 'Porcelain' }, bob.token));
    assert.equal(await setAdmin(app().ctx.db, 'BOB', false), true);
    assert.equal((await app().procedure('app.svc.song.updateSong', { id: song, title: 'Porcelain!' }, bob.token)).status, 403);
    assert.equal(await setAdmin(app().ctx.db, 'nobody', true), false);
  });
});
