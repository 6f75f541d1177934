import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { ConfigError } from '../../../toolkit/config-error.ts';
import { loadConfig } from '../../../toolkit/config.ts';
import { ingestListens } from '../../scrobbling/ingest.ts';
import { describeWithApp, type TestApp } from '../../../app/testing.ts';
import { testJpeg, writeTestImage, writeTestTrack, type TestTags } from '../test-music.ts';
import { scanLibrary, type ScanReport } from './index.ts';
import { ScanLease, ensureLocalSource } from './source.ts';

const musicDir = () => mkdtemp(join(tmpdir(), 'earshot-music-'));

function counts(report: ScanReport) {
  const { added, updated, removed, unchanged, skippedCount } = report;
  return { added, updated, removed, unchanged, skippedCount };
}

async function filesOf(app: TestApp, sourceId: number) {
  return app.ctx.db.selectFrom('library_files').selectAll().where('source_id', '=', sourceId).orderBy('path').execute();
}

async function directoriesOf(app: TestApp, sourceId: number) {
  return app.ctx.db.selectFrom('library_directories').select(['id', 'path']).where('source_id', '=', sourceId).orderBy('path').execute();
}

async function trackOfFile(app: TestApp, sourceId: number, path: string) {
  return app.ctx.db
    .selectFrom('library_files as f')
    .innerJoin('tracks as t', 't.id', 'f.track_id')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .select([
      't.id',
      't.title',
      't.artist',
      't.album',
      't.album_artist',
      't.genre',
      't.composer',
      't.label',
      't.bpm',
      't.key',
      't.lyrics',
      't.album_art',
      't.disc_number',
      't.track_number',
      't.duration',
      't.mbid',
      't.isrc',
      'al.year',
      'al.album_art as album_cover',
    ])
    .where('f.source_id', '=', sourceId)
    .where('f.path', '=', path)
    .executeTakeFirstOrThrow();
}

function fullTags(n: string): TestTags {
  return {
    title: `Song ${n}`,
    artist: `Scan Artist ${n}`,
    album: `Scan Album ${n}`,
    albumArtist: `Scan Artist ${n}`,
    trackNumber: 2,
    trackTotal: 9,
    discNumber: 2,
    genre: 'Krautrock',
    year: 1972,
    composer: `Composer ${n}`,
    label: 'Brain',
    bpm: 132,
    key: 'Dm',
    lyrics: `lyrics ${n}`,
  };
}

describeWithApp('library scan', (app) => {
  test('adds files of every format, with every tag landing in the catalog', async () => {
    const dir = await musicDir();
    const mp3 = await writeTestTrack(dir, 'A/One/01.mp3', 'mp3', { ...fullTags('mp3'), picture: { mime: 'image/jpeg', data: testJpeg() } });
    await writeTestTrack(dir, 'A/One/02.flac', 'flac', fullTags('flac'));
    await writeTestImage(dir, 'A/One/Cover.JPG');
    await writeTestTrack(dir, 'B/03.ogg', 'ogg', fullTags('ogg'));
    const report = await scanLibrary(app().ctx, { musicDir: dir });
    assert.deepEqual(counts(report), { added: 3, updated: 0, removed: 0, unchanged: 0, skippedCount: 0 });
    assert.equal(report.status, 'scanned');
    assert.equal(report.directories, 4);

    for (const format of ['mp3', 'flac', 'ogg']) {
      const path = { mp3: 'A/One/01.mp3', flac: 'A/One/02.flac', ogg: 'B/03.ogg' }[format]!;
      const track = await trackOfFile(app(), report.sourceId, path);
      assert.deepEqual(
        { ...track, id: undefined, duration: undefined },
        {
          id: undefined,
          title: `Song ${format}`,
          artist: `Scan Artist ${format}`,
          album: `Scan Album ${format}`,
          album_artist: `Scan Artist ${format}`,
          genre: 'Krautrock',
          composer: `Composer ${format}`,
          label: 'Brain',
          bpm: 132,
          key: 'Dm',
          lyrics: `lyrics ${format}`,
          album_art: format === 'ogg' ? null : `${app().ctx.config.publicUrl}/library/covers/${track.id}`,
          disc_number: 2,
          track_number: 2,
          duration: undefined,
          mbid: null,
          isrc: null,
          year: 1972,
          album_cover: format === 'ogg' ? null : `${app().ctx.config.publicUrl}/library/covers/${track.id}`,
        },
        format,
      );
      assert.ok(Math.abs(track.duration! - 2000) < 100);
    }

    const files = await filesOf(app(), report.sourceId);
    assert.deepEqual(
      files.map((f) => [f.path, f.name, f.suffix, f.content_type, f.cover, f.year, Number(f.size)]),
      [
        ['A/One/01.mp3', '01.mp3', 'mp3', 'audio/mpeg', 'embedded', 1972, mp3.bytes.length],
        ['A/One/02.flac', '02.flac', 'flac', 'audio/flac', 'A/One/Cover.JPG', 1972, files[1]!.size && Number(files[1]!.size)],
        ['B/03.ogg', '03.ogg', 'ogg', 'audio/ogg', null, 1972, Number(files[2]!.size)],
      ],
    );
    assert.ok(files.every((f) => f.duration_ms! > 1900 && f.bit_rate !== null && f.user_id === null));

    const dirs = await app()
      .ctx.db.selectFrom('library_directories as d')
      .leftJoin('library_directories as p', 'p.id', 'd.parent_id')
      .select(['d.path', 'd.name', 'p.path as parent'])
      .where('d.source_id', '=', report.sourceId)
      .orderBy('d.path')
      .execute();
    assert.deepEqual(
      dirs.map((d) => [d.path, d.parent]),
      [
        ['', null],
        ['A', ''],
        ['A/One', 'A'],
        ['B', ''],
      ],
    );
    const source = await app().ctx.db.selectFrom('library_sources').selectAll().where('id', '=', report.sourceId).executeTakeFirstOrThrow();
    assert.equal(source.kind, 'local');
    assert.equal(source.root, dir);
    assert.equal(source.scan_lease_until, null);
    assert.ok(source.last_scan_at);
    assert.equal((source.last_scan_report as unknown as ScanReport).added, 3);
    await rm(dir, { recursive: true });
  });

  test('a song scrobbled before the scan and its file meet at one track', async () => {
    const { did } = await app().signup('scanlistener');
    const user = await app().ctx.db.selectFrom('users').select('id').where('did', '=', did).executeTakeFirstOrThrow();
    const [outcome] = await ingestListens(
      app().ctx,
      user.id,
      [{ artist: 'Early Band', title: 'Played First', album: 'Heard Before', listenedAt: new Date(Date.now() - 60_000) }],
      'api',
    );
    assert.equal(outcome!.status, 'stored');
    const dir = await musicDir();
    await writeTestTrack(dir, 'played.flac', 'flac', { artist: 'Early Band', title: 'Played First', album: 'Heard Before', composer: 'Someone', year: 1999 });
    const report = await scanLibrary(app().ctx, { musicDir: dir });
    const track = await trackOfFile(app(), report.sourceId, 'played.flac');
    assert.equal(track.id, outcome!.status === 'stored' ? outcome!.trackId : undefined);
    assert.equal(track.composer, 'Someone', 'the file filled what the scrobble could not');
    assert.equal(track.year, 1999, "the album the scrobble made gets the file's year");
    await rm(dir, { recursive: true });
  });

  test('rescans are incremental: unchanged files are untouched, changes, removals and folder images are seen', async () => {
    const dir = await musicDir();
    const old = new Date('2024-05-01T10:00:00.123Z');
    await writeTestTrack(dir, 'Keep/keep.mp3', 'mp3', { artist: 'Inc Artist', title: 'Keep' }, { mtime: old });
    await writeTestTrack(dir, 'Keep/change.ogg', 'ogg', { artist: 'Inc Artist', title: 'Before' }, { mtime: old });
    await writeTestTrack(dir, 'Gone/gone.flac', 'flac', { artist: 'Inc Artist', title: 'Gone' }, { mtime: old });
    const first = await scanLibrary(app().ctx, { musicDir: dir });
    assert.deepEqual(counts(first), { added: 3, updated: 0, removed: 0, unchanged: 0, skippedCount: 0 });
    const before = await filesOf(app(), first.sourceId);
    const dirsBefore = await directoriesOf(app(), first.sourceId);

    const again = await scanLibrary(app().ctx, { musicDir: dir });
    assert.deepEqual(counts(again), { added: 0, updated: 0, removed: 0, unchanged: 3, skippedCount: 0 });
    assert.deepEqual(await filesOf(app(), first.sourceId), before, 'a rescan with nothing changed writes nothing');

    await writeTestTrack(dir, 'Keep/change.ogg', 'ogg', { artist: 'Inc Artist', title: 'After' });
    await unlink(join(dir, 'Gone/gone.flac'));
    await writeTestImage(dir, 'Keep/folder.png');
    // A cover's stored ETag names the bytes it was taken from: a changed file or a new cover clears it.
    await app().ctx.db.updateTable('library_files').set({ cover_etag: '"stale"' }).where('source_id', '=', first.sourceId).execute();
    const third = await scanLibrary(app().ctx, { musicDir: dir });
    assert.deepEqual(counts(third), { added: 0, updated: 1, removed: 1, unchanged: 1, skippedCount: 0 });
    const after = await filesOf(app(), first.sourceId);
    assert.deepEqual(
      after.map((f) => f.path),
      ['Keep/change.ogg', 'Keep/keep.mp3'],
    );
    const idOf = (rows: typeof before, path: string) => rows.find((f) => f.path === path)!.id;
    assert.equal(idOf(after, 'Keep/change.ogg'), idOf(before, 'Keep/change.ogg'), 'a changed file keeps its id');
    assert.equal(idOf(after, 'Keep/keep.mp3'), idOf(before, 'Keep/keep.mp3'));
    assert.equal((await trackOfFile(app(), first.sourceId, 'Keep/change.ogg')).title, 'After');
    assert.deepEqual(
      after.map((f) => f.cover),
      ['Keep/folder.png', 'Keep/folder.png'],
      'a new folder image covers unchanged files too',
    );
    const etags = await app().ctx.db.selectFrom('library_files').select('cover_etag').where('source_id', '=', first.sourceId).execute();
    assert.deepEqual(
      etags.map((f) => f.cover_etag),
      [null, null],
    );
    const dirs = await directoriesOf(app(), first.sourceId);
    assert.deepEqual(
      dirs.map((d) => d.path),
      ['', 'Keep'],
      'the emptied directory is gone',
    );
    assert.deepEqual(
      dirs,
      dirsBefore.filter((d) => d.path !== 'Gone'),
      'directories that stay keep their ids',
    );

    // Touching the modification time alone re-reads the file.
    await utimes(join(dir, 'Keep/keep.mp3'), new Date(), new Date());
    assert.deepEqual(counts(await scanLibrary(app().ctx, { musicDir: dir })), { added: 0, updated: 1, removed: 0, unchanged: 1, skippedCount: 0 });
    await rm(dir, { recursive: true });
  });

  test('corrupt audio, other files, hidden entries and symbolic link loops are skipped and the scan finishes', async () => {
    const dir = await musicDir();
    await writeTestTrack(dir, 'ok.mp3', 'mp3', { artist: 'Skip Artist', title: 'Fine' });
    await writeFile(join(dir, 'broken.mp3'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 251)));
    await writeFile(join(dir, 'notes.txt'), 'hello');
    await writeTestTrack(dir, '.hidden/secret.mp3', 'mp3', { artist: 'Skip Artist', title: 'Hidden' });
    await symlink(dir, join(dir, 'loop'));
    const report = await scanLibrary(app().ctx, { musicDir: dir });
    assert.equal(report.added, 1);
    const reasons = Object.fromEntries(report.skipped.map((s) => [s.path, s.reason]));
    assert.match(reasons['broken.mp3']!, /^unreadable audio: /);
    assert.equal(reasons['notes.txt'], 'not an audio file');
    assert.match(reasons.loop!, /already scanned/);
    assert.equal(report.skippedCount, 3);
    assert.deepEqual(
      (await filesOf(app(), report.sourceId)).map((f) => f.path),
      ['ok.mp3'],
    );
    await rm(dir, { recursive: true });
  });

  test('a folder being scanned is not scanned again at the same time', async () => {
    const dir = await musicDir();
    await writeTestTrack(dir, 'a.flac', 'flac', { artist: 'Lease Artist', title: 'Leased' });
    const sourceId = await ensureLocalSource(app().ctx.db, dir);
    const lease = await ScanLease.take(app().ctx.db, sourceId);
    assert.ok(lease);
    const blocked = await scanLibrary(app().ctx, { musicDir: dir });
    assert.equal(blocked.status, 'already-scanning');
    assert.equal(blocked.added, 0);
    assert.equal((await filesOf(app(), sourceId)).length, 0);
    await lease.release();

    // A second scan while a real one runs: wait until the first holds the lease.
    for (let i = 0; i < 60; i++) await writeTestTrack(dir, `many/${i}.mp3`, 'mp3', { artist: 'Lease Artist', title: `Many ${i}` });
    const running = scanLibrary(app().ctx, { musicDir: dir });
    const held = () => app().ctx.db.selectFrom('library_sources').select('scan_lease_until').where('id', '=', sourceId).executeTakeFirstOrThrow();
    while ((await held()).scan_lease_until === null) await new Promise((resolve) => setTimeout(resolve, 2));
    assert.equal((await scanLibrary(app().ctx, { musicDir: dir })).status, 'already-scanning');
    assert.equal((await running).added, 61);

    // A lease left by a crashed scan runs out, and the next scan takes over.
    await app()
      .ctx.db.updateTable('library_sources')
      .set({ scan_lease_until: new Date(Date.now() - 1000) })
      .where('id', '=', sourceId)
      .execute();
    assert.equal((await scanLibrary(app().ctx, { musicDir: dir })).status, 'scanned');
    await rm(dir, { recursive: true });
  });

  test('an aborted scan stops and gives its lease back', async () => {
    const dir = await musicDir();
    await writeTestTrack(dir, 'a.mp3', 'mp3', { artist: 'Abort Artist', title: 'Stopped' });
    await assert.rejects(scanLibrary(app().ctx, { musicDir: dir, signal: AbortSignal.abort() }), { name: 'AbortError' });
    const report = await scanLibrary(app().ctx, { musicDir: dir });
    assert.equal(report.status, 'scanned');
    assert.equal(report.added, 1);
    await rm(dir, { recursive: true });
  });

  test('an unset or missing folder is a configuration error', async () => {
    assert.equal(loadConfig({ EARSHOT_MUSIC_DIR: 'some/music' }).musicDir, resolve('some/music'));
    assert.equal(loadConfig({}).musicDir, undefined);
    await assert.rejects(scanLibrary({ ...app().ctx, config: { ...app().ctx.config, musicDir: undefined } }), (error: Error) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /EARSHOT_MUSIC_DIR is not set/);
      return true;
    });
    await assert.rejects(scanLibrary(app().ctx, { musicDir: join(tmpdir(), 'earshot-no-such-dir') }), /does not exist/);
  });
});
