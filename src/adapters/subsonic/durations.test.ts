/**
 * Songs whose headers give no duration (an Ogg file longer than the parser's quick look at its
 * first pages) get one from their whole stream, read once at scan, from the music folder and
 * from both file hosts: Subsonic shows it on the song and in the album's total, and a rescan of
 * unchanged files reads nothing again.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { settleDetached } from '../../toolkit/background.ts';
import { scanLibrary } from '../../core/library/scan/index.ts';
import { TAG_READER_VERSION } from '../../core/library/tags.ts';
import { encodeTestTrack, writeTestTrack, type TestTags } from '../../core/library/test-music.ts';
import { startFakeFileHostA } from '../../core/providers/filehost-a/fake.ts';
import { startFakeFileHostB } from '../../core/providers/filehost-b/fake.ts';
import { connectThroughConsent, useProvider } from '../../core/providers/testing.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { subsonicClient, subsonicUser } from './client-testing.ts';

/** Three minutes of Opus: 36 Ogg pages, past the 13 the parser reads before it stops looking. */
const LONG_MS = 180_000;
const SHORT_MS = 30_000;

const tags = (album: string, title: string, trackNumber: number): TestTags => ({
  title,
  artist: 'Duration Band',
  album,
  albumArtist: 'Duration Band',
  trackNumber,
});

/** The song and its album as Subsonic shows them (durations in seconds). */
async function shown(app: TestApp, auth: { username: string; password: string }, trackId: string) {
  const client = subsonicClient(app, auth);
  const { song } = await client.getSong({ id: trackId });
  const { album } = await client.getAlbum({ id: song.albumId! });
  return { song: song.duration, album: album.duration, songs: album.songCount };
}

describeWithApp('durations from the stream', (app) => {
  let user: Awaited<ReturnType<typeof subsonicUser>>;
  let auth: { username: string; password: string };
  let dir: string;

  before(async () => {
    user = await subsonicUser(app(), 'timekeeper');
    auth = { username: user.handle, password: user.key };
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-music-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the music folder: a long Ogg file has its duration on the song and in the album total; a rescan reads nothing again', async () => {
    await writeTestTrack(dir, 'Long Player/01 Long.ogg', 'ogg', tags('Long Player', 'Long', 1), { durationMs: LONG_MS });
    await writeTestTrack(dir, 'Long Player/02 Short.ogg', 'ogg', tags('Long Player', 'Short', 2), { durationMs: SHORT_MS });
    const report = await scanLibrary(app().ctx, { musicDir: dir });
    assert.equal(report.added, 2, JSON.stringify(report));
    const file = await app()
      .ctx.db.selectFrom('library_files')
      .select(['track_id', 'duration_ms'])
      .where('source_id', '=', report.sourceId)
      .where('path', '=', 'Long Player/01 Long.ogg')
      .executeTakeFirstOrThrow();
    assert.equal(file.duration_ms, LONG_MS);
    assert.deepEqual(await shown(app(), auth, file.track_id!), { song: 180, album: 210, songs: 2 });
    const again = await scanLibrary(app().ctx, { musicDir: dir });
    assert.deepEqual([again.added, again.updated, again.unchanged], [0, 0, 2], 'unchanged files are not read again');
  });

  test('a file an older tag reader left without a duration is read again once, although unchanged', async () => {
    await writeTestTrack(dir, 'Old Scan/01 Long.ogg', 'ogg', tags('Old Scan', 'Long', 1), { durationMs: LONG_MS });
    const first = await scanLibrary(app().ctx, { musicDir: dir });
    const stored = () =>
      app()
        .ctx.db.selectFrom('library_files')
        .select(['duration_ms', 'tag_reader', 'track_id'])
        .where('source_id', '=', first.sourceId)
        .where('path', '=', 'Old Scan/01 Long.ogg')
        .executeTakeFirstOrThrow();
    // As version 1 of the reader left it, and as migration 0018 marks such a file.
    await app()
      .ctx.db.updateTable('library_files')
      .set({ tag_reader: 1, duration_ms: null })
      .where('source_id', '=', first.sourceId)
      .where('path', '=', 'Old Scan/01 Long.ogg')
      .execute();
    const upgraded = await scanLibrary(app().ctx, { musicDir: dir });
    assert.deepEqual([upgraded.added, upgraded.updated], [0, 1], JSON.stringify(upgraded));
    const row = await stored();
    assert.deepEqual([row.duration_ms, row.tag_reader], [LONG_MS, TAG_READER_VERSION]);
    assert.equal((await shown(app(), auth, row.track_id!)).song, 180);
    const again = await scanLibrary(app().ctx, { musicDir: dir });
    assert.equal(again.updated, 0, 'read again once only');
  });

  for (const [host, start] of [
    ['filehostA', startFakeFileHostA],
    ['filehostB', startFakeFileHostB],
  ] as const) {
    test(`${host}: the long Ogg file gets its duration at the first sync; a sync of unchanged files downloads nothing`, async () => {
      const fake = await start();
      try {
        useProvider(app(), host, fake.config);
        const album = `Hosted Long Player ${host}`;
        fake.addFile('/Music/Long Player/01 Long.ogg', encodeTestTrack('ogg', tags(album, 'Long', 1), LONG_MS).bytes);
        fake.addFile('/Music/Long Player/02 Short.ogg', encodeTestTrack('ogg', tags(album, 'Short', 2), SHORT_MS).bytes);
        const connected = await connectThroughConsent(app(), user.token, host, '?folder=/Music');
        assert.equal(connected.status, 200, JSON.stringify(connected.body));
        await settleDetached();
        const listed = await app().query(`app.svc.${host}.getFiles`, { at: '/Music/Long Player' }, user.token);
        assert.equal(listed.status, 200, JSON.stringify(listed.body));
        const trackId = listed.body.files.find((f: any) => f.name === '01 Long.ogg').trackId;
        assert.deepEqual(await shown(app(), auth, trackId), { song: 180, album: 210, songs: 2 });
        const served = fake.bytesServed;
        const again = await app().procedure(`app.svc.${host}.sync`, {}, user.token);
        assert.equal(again.status, 200, JSON.stringify(again.body));
        assert.deepEqual([again.body.added, again.body.updated], [0, 0]);
        assert.equal(fake.bytesServed, served, 'a sync of unchanged files downloads nothing');
      } finally {
        await fake.close();
      }
    });
  }
});
