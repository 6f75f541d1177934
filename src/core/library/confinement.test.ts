/**
 * The music folder is confined: symbolic links leaving it are skipped by the scan (named in its
 * report) and refused when served (stream, download, covers), also when a file or a directory was
 * swapped for such a link after the scan. Links that stay inside keep working. Through the real
 * scanner and the real server, on both backends.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { restJson, rest, subsonicUser } from '../../adapters/subsonic/client-testing.ts';
import { describeWithApp } from '../../app/testing.ts';
import { scanLibrary, type ScanReport } from './scan/index.ts';
import { LINKS_OUTSIDE } from './scan/walk.ts';
import { testJpeg, testPng, writeTestImage, writeTestTrack, type TestTags } from './test-music.ts';

const SECRET_IMAGE = Buffer.from(testJpeg('secret outside the folder'));

describeWithApp('the music folder is confined', (app) => {
  let music: string;
  let outside: string;
  let report: ScanReport;
  let auth: Record<string, string>;
  let outsideSong: Uint8Array;
  let insideSong: Uint8Array;
  const tracks: Record<string, string> = {};
  const tags = (title: string, picture = false): TestTags => ({
    artist: 'Confined Artist',
    album: `Confined ${title}`,
    title,
    ...(picture ? { picture: { mime: 'image/jpeg', data: testJpeg(title) } } : {}),
  });
  const link = (target: string, at: string) => fs.symlinkSync(target, path.join(music, at));

  before(async () => {
    music = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-music-'));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'the password is swordfish');
    fs.writeFileSync(path.join(outside, 'secret.jpg'), SECRET_IMAGE);
    outsideSong = (await writeTestTrack(outside, 'outside.mp3', 'mp3', tags('Outside Song', true))).bytes;
    await writeTestTrack(outside, 'Dir/deep.mp3', 'mp3', tags('Outside Deep'));
    await writeTestTrack(outside, 'Swap/song.mp3', 'mp3', tags('Swapped Song'));

    // Links leaving the folder, there at the scan.
    await writeTestTrack(music, 'SomeAlbum/song.mp3', 'mp3', tags('Some Song'));
    link(path.join(outside, 'secret.jpg'), 'SomeAlbum/cover.jpg');
    link(path.join(outside, 'secret.txt'), 'SomeAlbum/folder.jpg');
    link(path.join(outside, 'outside.mp3'), 'SomeAlbum/linked.mp3');
    link(path.join(outside, 'Dir'), 'Linked Dir');
    // Links inside the folder (relative), to files the walk does not list itself (a hidden folder).
    insideSong = (await writeTestTrack(music, '.stash/inside.mp3', 'mp3', tags('Inside Song'))).bytes;
    fs.writeFileSync(path.join(music, '.stash/pic.png'), testPng('inside'));
    fs.mkdirSync(path.join(music, 'Links'));
    link('../.stash/inside.mp3', 'Links/alias.mp3');
    link('../.stash/pic.png', 'Links/cover.png');
    // Inside at the scan, swapped for links leaving the folder after it.
    await writeTestTrack(music, 'Later/embedded.mp3', 'mp3', tags('Later Embedded', true));
    await writeTestTrack(music, 'Later Folder/song.mp3', 'mp3', tags('Later Folder Song'));
    await writeTestImage(music, 'Later Folder/cover.jpg');
    await writeTestTrack(music, 'Swap/Inner/song.mp3', 'mp3', tags('Swapped Song'));

    report = await scanLibrary(app().ctx, { musicDir: music });
    const rows = await app().ctx.db.selectFrom('library_files').select(['path', 'track_id']).where('source_id', '=', report.sourceId).execute();
    for (const row of rows) tracks[row.path] = row.track_id!;

    fs.rmSync(path.join(music, 'Later/embedded.mp3'));
    link(path.join(outside, 'outside.mp3'), 'Later/embedded.mp3');
    fs.rmSync(path.join(music, 'Later Folder/cover.jpg'));
    link(path.join(outside, 'secret.jpg'), 'Later Folder/cover.jpg');
    fs.renameSync(path.join(music, 'Swap/Inner'), path.join(music, 'Swap/.moved'));
    link(path.join(outside, 'Swap'), 'Swap/Inner');

    const user = await subsonicUser(app(), 'confined');
    auth = { u: user.handle, p: user.key };
  });
  after(() => {
    fs.rmSync(music, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const failureCode = async (method: string, id: string) => (await restJson(app(), method, { ...auth, id })).error?.code;
  const publicCover = (id: string) => fetch(`${app().apiUrl}/library/covers/${id}`);

  test('the scan skips every link leaving the folder, naming it in the report, and keeps links inside', async () => {
    const reasons = Object.fromEntries(report.skipped.map((skipped) => [skipped.path, skipped.reason]));
    assert.deepEqual(reasons, {
      'SomeAlbum/cover.jpg': LINKS_OUTSIDE,
      'SomeAlbum/folder.jpg': LINKS_OUTSIDE,
      'SomeAlbum/linked.mp3': LINKS_OUTSIDE,
      'Linked Dir': LINKS_OUTSIDE,
    });
    assert.deepEqual(Object.keys(tracks).sort(), [
      'Later Folder/song.mp3',
      'Later/embedded.mp3',
      'Links/alias.mp3',
      'SomeAlbum/song.mp3',
      'Swap/Inner/song.mp3',
    ]);
    const directories = await app().ctx.db.selectFrom('library_directories').select('path').where('source_id', '=', report.sourceId).orderBy('path').execute();
    assert.ok(!directories.some((directory) => directory.path.startsWith('Linked Dir')), JSON.stringify(directories));
    const covers = await app().ctx.db.selectFrom('library_files').select(['path', 'cover']).where('source_id', '=', report.sourceId).execute();
    assert.equal(covers.find((row) => row.path === 'SomeAlbum/song.mp3')!.cover, null, 'a folder image linked outside is no cover');
    assert.equal(covers.find((row) => row.path === 'Links/alias.mp3')!.cover, 'Links/cover.png');
    const titles = await app().ctx.db.selectFrom('tracks').select('title').where('artist', '=', 'Confined Artist').execute();
    assert.ok(!titles.some((row) => row.title.startsWith('Outside')), 'no outside file reached the catalog');
  });

  test('a cover linked outside is 404 on the public route and 70 on getCoverArt', async () => {
    for (const file of ['SomeAlbum/song.mp3', 'Later Folder/song.mp3', 'Later/embedded.mp3']) {
      const id = tracks[file]!;
      const open = await publicCover(id);
      assert.equal(open.status, 404, file);
      assert.doesNotMatch(await open.text(), /swordfish/);
      assert.equal(await failureCode('getCoverArt', id), 70, file);
    }
  });

  test('a file or a directory swapped for a link leaving the folder is not streamed or downloaded', async () => {
    for (const file of ['Later/embedded.mp3', 'Swap/Inner/song.mp3']) {
      for (const method of ['stream', 'download']) assert.equal(await failureCode(method, tracks[file]!), 70, `${method} ${file}`);
    }
    // A file the link does not touch still plays.
    const untouched = await rest(app(), 'stream', { ...auth, id: tracks['Later Folder/song.mp3']! });
    assert.equal(untouched.status, 200);
    assert.equal(untouched.headers.get('content-type'), 'audio/mpeg');
    await untouched.arrayBuffer();
    assert.notDeepEqual(Buffer.from(outsideSong), Buffer.from(insideSong));
  });

  test('links inside the folder still work: the linked file streams, the linked folder image is the cover', async () => {
    const id = tracks['Links/alias.mp3']!;
    const streamed = await rest(app(), 'stream', { ...auth, id });
    assert.equal(streamed.status, 200);
    assert.deepEqual(Buffer.from(await streamed.arrayBuffer()), Buffer.from(insideSong));
    const ranged = await rest(app(), 'stream', { ...auth, id }, { range: 'bytes=10-19' });
    assert.equal(ranged.status, 206);
    assert.deepEqual(Buffer.from(await ranged.arrayBuffer()), Buffer.from(insideSong).subarray(10, 20));
    const cover = await publicCover(id);
    assert.equal(cover.status, 200);
    assert.equal(cover.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await cover.arrayBuffer()), Buffer.from(testPng('inside')));
  });
});
