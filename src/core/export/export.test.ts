/**
 * app.svc.actor.exportData (and GET /export, its older address) end to end: the archive's
 * entries, ListenBrainz-shaped plays month by month, and the round trip (export, import the zip
 * into another account, the same plays).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { importBatch, importStatus, planImports, runImport, type ImportSink } from '../scrobbling/imports/index.ts';
import { listenerWithHistory } from '../scrobbling/testing.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { exportedListens, unzip } from './testing.ts';

const EXPORT_DATA = '/xrpc/app.svc.actor.exportData';

async function download(app: TestApp, token: string | undefined, at = EXPORT_DATA) {
  const response = await fetch(`${app.apiUrl}${at}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** What a user's plays are: the exact time, the song, and every field of the song. */
const plays = (app: TestApp, userId: string) =>
  app.ctx.db
    .selectFrom('scrobbles as s')
    .innerJoin('tracks as t', 't.id', 's.track_id')
    .select([
      's.listened_at',
      's.track_id',
      's.edited_at',
      't.artist',
      't.title',
      't.album',
      't.album_artist',
      't.duration',
      't.track_number',
      't.disc_number',
      't.mbid',
      't.isrc',
      't.album_id',
      't.artist_id',
    ])
    .where('s.user_id', '=', userId)
    .orderBy('s.listened_at')
    .orderBy('s.track_id')
    .execute();

describeWithApp('export', (app) => {
  test('the archive holds the profile, likes, playlists and every play as ListenBrainz JSON Lines per UTC month', async () => {
    const friend = await app().signup('exp-friend');
    const me = await listenerWithHistory(app(), 'exp-me', [
      { artist: 'Export Band', title: 'January Song', album: 'Winter', at: '2024-01-31T23:30:00Z' },
      { artist: 'Export Band', title: 'February Song', album: 'Winter', at: '2024-02-01T00:30:00Z' },
      { artist: 'Other Band', title: 'Late', at: '2024-02-15T12:00:00Z' },
    ]);
    await app().procedure('app.svc.actor.follow', { did: friend.did }, me.token);
    const [song] = await plays(app(), me.userId);
    const track = await app().ctx.db.selectFrom('tracks').select('id').where('title', '=', song!.title).executeTakeFirstOrThrow();
    await app().procedure('app.svc.song.likeSong', { id: track.id }, me.token);
    const playlist = await app().procedure('app.svc.library.createPlaylist', { name: 'Favourites', songId: [track.id] }, me.token);
    assert.equal(playlist.status, 200, JSON.stringify(playlist.body));
    // ListenBrainz feedback and import marks are the user's data too.
    const late = await app().ctx.db.selectFrom('tracks').select('id').where('title', '=', 'Late').executeTakeFirstOrThrow();
    await app().ctx.db.insertInto('song_dislikes').values({ user_id: me.userId, track_id: late.id }).execute();
    await app().ctx.db.insertInto('lb_latest_imports').values({ user_id: me.userId, service: 'lastfm', latest_import: 1706745600 }).execute();

    const { response, bytes } = await download(app(), me.token);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/zip');
    assert.match(response.headers.get('content-disposition') ?? '', /^attachment; filename\*=UTF-8''earshot_exp-me_\d{4}-\d{2}-\d{2}\.zip$/);
    const entries = await unzip(bytes);
    assert.deepEqual([...entries.keys()].sort(), [
      'README.txt',
      'dislikes.json',
      'likes.json',
      'listens/2024/1.jsonl',
      'listens/2024/2.jsonl',
      'playlists.json',
      'user.json',
    ]);
    const profile = JSON.parse(entries.get('user.json')!);
    assert.equal(profile.handle, 'exp-me');
    assert.deepEqual(
      profile.following.map((f: any) => f.handle),
      ['exp-friend'],
    );
    assert.deepEqual(profile.latestImports, [{ service: 'lastfm', latestImport: 1706745600 }]);
    assert.deepEqual(
      JSON.parse(entries.get('dislikes.json')!).map((row: any) => [row.title, row.artist]),
      [['Late', 'Other Band']],
    );
    assert.deepEqual(
      JSON.parse(entries.get('likes.json')!).map((like: any) => [like.kind, like.title]),
      [['song', 'January Song']],
    );
    const [favourites] = JSON.parse(entries.get('playlists.json')!);
    assert.equal(favourites.name, 'Favourites');
    assert.deepEqual(
      favourites.songs.map((s: any) => s.title),
      ['January Song'],
    );
    const january = entries
      .get('listens/2024/1.jsonl')!
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(january.length, 1);
    assert.equal(january[0].listened_at, Date.parse('2024-01-31T23:30:00Z') / 1000);
    assert.equal(january[0].track_metadata.additional_info.listened_at_iso, '2024-01-31T23:30:00.000Z');
    assert.equal(january[0].user_name, 'exp-me');
    assert.deepEqual(
      [january[0].track_metadata.artist_name, january[0].track_metadata.track_name, january[0].track_metadata.release_name],
      ['Export Band', 'January Song', 'Winter'],
    );
    assert.equal(entries.get('listens/2024/2.jsonl')!.trim().split('\n').length, 2);
  });

  test('the exported zip imports into another account as the same plays, to the millisecond', async () => {
    const listens = [
      ...Array.from({ length: 1205 }, (_, i) => ({
        artist: `Round Trip ${i % 7}`,
        title: `Song ${i % 50}`,
        album: 'Trip',
        at: new Date(Date.UTC(2023, 0, 1) + i * 3_600_000 + ((i * 37) % 1000)).toISOString(),
      })),
      // Two plays of one song within one second: in whole seconds they would be one.
      { artist: 'Round Trip 0', title: 'Song 0', album: 'Trip', at: '2024-06-01T12:00:00.120Z' },
      { artist: 'Round Trip 0', title: 'Song 0', album: 'Trip', at: '2024-06-01T12:00:00.870Z' },
      {
        artist: 'Rich Band',
        title: 'Rich Song',
        album: 'Rich Album',
        albumArtist: 'Various Artists',
        durationMs: 245_000,
        trackNumber: 3,
        discNumber: 2,
        mbid: 'b1a9c0e9-d987-4042-ae91-78d6a3267d69',
        isrc: 'USABC2400001',
        at: '2024-06-02T08:00:00.005Z',
      },
    ];
    const source = await listenerWithHistory(app(), 'exp-source', listens);
    const target = await listenerWithHistory(app(), 'exp-target');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-export-'));
    try {
      const file = path.join(dir, 'export.zip');
      fs.writeFileSync(file, (await download(app(), source.token)).bytes);
      const plan = await planImports([file], undefined);
      assert.ok(plan.imports.length >= 2 && plan.imports.every((planned) => planned.format === 'listenbrainz'), 'one ListenBrainz import per month file');
      const sink: ImportSink = {
        status: (fingerprint) => importStatus(app().ctx.db, target.userId, fingerprint),
        send: (batch) => importBatch(app().ctx.db, app().ctx.config, target.userId, batch),
      };
      let stored = 0;
      for (const planned of plan.imports) stored += (await runImport({ ...planned, sink })).stored;
      plan.close();
      assert.equal(stored, listens.length);
      const copied = await plays(app(), target.userId);
      assert.deepEqual(copied, await plays(app(), source.userId));
      assert.deepEqual(
        copied.filter((play) => play.title === 'Song 0' && play.listened_at >= new Date('2024-06-01')).map((play) => play.listened_at.toISOString()),
        ['2024-06-01T12:00:00.120Z', '2024-06-01T12:00:00.870Z'],
      );
      // And the copy exports as the original did: the same listens, field for field.
      const again = async (token: string) => exportedListens(await unzip((await download(app(), token)).bytes));
      assert.deepEqual(await again(target.token), await again(source.token));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an export needs the account: 401 in the XRPC error shape without credentials; a user without plays gets the documents alone', async () => {
    for (const at of [EXPORT_DATA, '/export']) {
      const { response, bytes } = await download(app(), undefined, at);
      assert.equal(response.status, 401, at);
      assert.equal(JSON.parse(bytes.toString()).error, 'AuthMissing', at);
    }
    const empty = await app().signup('exp-empty');
    const entries = await unzip((await download(app(), empty.token)).bytes);
    assert.deepEqual([...entries.keys()].sort(), ['README.txt', 'dislikes.json', 'likes.json', 'playlists.json', 'user.json']);
    const older = await download(app(), empty.token, '/export');
    assert.equal(older.response.headers.get('content-type'), 'application/zip');
    assert.deepEqual(await unzip(older.bytes), entries);
  });

  test('exportData is documented as an XRPC query answering a zip', async () => {
    const { body } = await app().request('GET', '/openapi.json');
    const entry = body.paths[EXPORT_DATA].get;
    assert.equal(entry.operationId, 'app.svc.actor.exportData');
    assert.deepEqual(entry.tags, ['app.svc.actor']);
    assert.deepEqual(Object.keys(entry.responses['200'].content), ['application/zip']);
    assert.ok(entry.responses['401'] && entry.responses['403']);
  });

  test('exportData keeps XRPC method rule: a POST is 405 MethodNotAllowed', async () => {
    const posted = await app().request('POST', EXPORT_DATA, { body: {} });
    assert.equal(posted.status, 405);
    assert.deepEqual(posted.body, { error: 'MethodNotAllowed', message: 'app.svc.actor.exportData is a query; use GET' });
  });
});
