import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseFile } from 'music-metadata';
import { testJpeg, testPng, writeTestImage, writeTestTrack, type TestFormat, type TestTags } from './test-music.ts';

const tags: TestTags = {
  title: 'Ünïcode Title',
  artist: ['Main Artist', 'Guest Artist'],
  album: 'The Album',
  albumArtist: 'Main Artist',
  trackNumber: 3,
  trackTotal: 12,
  discNumber: 2,
  discTotal: 3,
  genre: 'Dream Pop',
  year: 2004,
  composer: 'A. Composer',
  label: 'Some Label',
  bpm: 121,
  key: 'Am',
  isrc: 'USRC17607839',
  lyrics: 'first line\nsecond line',
  mbid: '8f3471b5-7e6a-48da-86a9-c1c07a0f47ae',
  releaseTrackMbid: 'b1a9c0e9-d987-4042-ae91-78d6a3267d69',
  artistMbid: '5b11f4ce-a62d-471e-81fc-a69a8278c7da',
  albumMbid: '1b022e01-4da6-387b-8658-8678046e4cef',
  picture: { mime: 'image/jpeg', data: testJpeg('embedded') },
};

describe('test music', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'earshot-test-music-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const format of ['mp3', 'flac', 'ogg'] as TestFormat[]) {
    test(`music-metadata reads back every field of ${format}`, async () => {
      const written = await writeTestTrack(dir, `Artist/Album/track.${format}`, format, tags, { durationMs: 3000 });
      assert.deepEqual(new Uint8Array(await readFile(written.path)), written.bytes);
      const { common, format: facts } = await parseFile(written.path);
      assert.equal(common.title, tags.title);
      assert.deepEqual(common.artists, tags.artist);
      assert.equal(common.album, tags.album);
      assert.equal(common.albumartist, tags.albumArtist);
      assert.deepEqual(common.track, { no: 3, of: 12 });
      assert.deepEqual(common.disk, { no: 2, of: 3 });
      assert.deepEqual(common.genre, ['Dream Pop']);
      assert.equal(common.year, 2004);
      assert.deepEqual(common.composer, ['A. Composer']);
      assert.deepEqual(common.label, ['Some Label']);
      assert.equal(Number(common.bpm), 121);
      assert.equal(common.key, 'Am');
      assert.deepEqual(common.isrc, [tags.isrc]);
      assert.match(JSON.stringify(common.lyrics), /first line\\nsecond line/);
      assert.equal(common.musicbrainz_recordingid, tags.mbid);
      assert.equal(common.musicbrainz_trackid, tags.releaseTrackMbid);
      assert.deepEqual([common.musicbrainz_artistid].flat(), [tags.artistMbid]);
      assert.equal(common.musicbrainz_albumid, tags.albumMbid);
      assert.equal(common.picture?.length, 1);
      assert.deepEqual(new Uint8Array(common.picture![0]!.data), tags.picture!.data);
      assert.equal(common.picture![0]!.format, 'image/jpeg');
      assert.ok(Math.abs(facts.duration! * 1000 - written.durationMs) < 1, `${facts.duration} vs ${written.durationMs}`);
      assert.ok(Math.abs(written.durationMs - 3000) < 100);
      assert.ok(facts.bitrate! > 0);
    });
  }

  test('a track without tags still parses, with its duration', async () => {
    const written = await writeTestTrack(dir, 'bare.flac', 'flac', {}, { durationMs: 500 });
    const { common, format } = await parseFile(written.path);
    assert.equal(common.title, undefined);
    assert.ok(Math.abs(format.duration! * 1000 - written.durationMs) < 1);
  });

  test('long comment packets span Ogg pages and still parse', async () => {
    const lyrics = 'la '.repeat(40_000);
    const written = await writeTestTrack(dir, 'long.ogg', 'ogg', { title: 'Long', lyrics }, { durationMs: 12_000 });
    const { common, format } = await parseFile(written.path);
    assert.equal(common.title, 'Long');
    assert.match(JSON.stringify(common.lyrics), /la la/);
    assert.ok(Math.abs(format.duration! - 12) < 0.05);
  });

  test('images carry their format signatures and the asked modification time lands', async () => {
    assert.deepEqual([...testPng('x').subarray(1, 4)], [0x50, 0x4e, 0x47]);
    const jpeg = await readFile(await writeTestImage(dir, 'Album/cover.jpg'));
    assert.deepEqual([...jpeg.subarray(0, 2), ...jpeg.subarray(-2)], [0xff, 0xd8, 0xff, 0xd9]);
    const mtime = new Date('2020-01-02T03:04:05Z');
    const written = await writeTestTrack(dir, 'dated.mp3', 'mp3', { title: 'Dated' }, { mtime });
    assert.equal((await stat(written.path)).mtime.getTime(), mtime.getTime());
  });
});
