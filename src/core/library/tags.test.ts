import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MAX_GENRE_LENGTH, MAX_NAME_LENGTH } from '../catalog/field-rules.ts';
import { MAX_LYRICS_LENGTH, UNKNOWN_ARTIST, isAudioFile, readFileTags } from './tags.ts';
import { testPng, writeTestTrack, type TestFormat } from './test-music.ts';

describe('file tags', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'earshot-tags-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const contentTypes: Record<TestFormat, string> = { mp3: 'audio/mpeg', flac: 'audio/flac', ogg: 'audio/ogg' };

  for (const format of ['mp3', 'flac', 'ogg'] as TestFormat[]) {
    test(`every field of ${format} lands in the track metadata`, async () => {
      const written = await writeTestTrack(dir, `full.${format}`, format, {
        title: 'Song',
        artist: 'Band',
        album: 'Record',
        albumArtist: 'Band',
        trackNumber: 4,
        trackTotal: 10,
        discNumber: 2,
        genre: 'Shoegaze',
        year: 1991,
        composer: 'Writer',
        label: 'Creation',
        bpm: 98,
        key: 'F#m',
        isrc: 'gbaaa9100001',
        lyrics: 'words',
        mbid: '8F3471B5-7E6A-48DA-86A9-C1C07A0F47AE',
        artistMbid: '5b11f4ce-a62d-471e-81fc-a69a8278c7da',
        albumMbid: '1b022e01-4da6-387b-8658-8678046e4cef',
        picture: { mime: 'image/png', data: testPng() },
      });
      const tags = await readFileTags(written.path);
      assert.deepEqual(tags.metadata, {
        artist: 'Band',
        title: 'Song',
        album: 'Record',
        albumArtist: 'Band',
        durationMs: written.durationMs,
        trackNumber: 4,
        discNumber: 2,
        mbid: '8f3471b5-7e6a-48da-86a9-c1c07a0f47ae',
        artistMbid: '5b11f4ce-a62d-471e-81fc-a69a8278c7da',
        albumMbid: '1b022e01-4da6-387b-8658-8678046e4cef',
        isrc: 'GBAAA9100001',
        genre: 'Shoegaze',
        composer: 'Writer',
        label: 'Creation',
        bpm: 98,
        key: 'F#m',
        lyrics: 'words',
        year: 1991,
      });
      assert.equal(tags.durationMs, written.durationMs);
      assert.equal(tags.contentType, contentTypes[format]);
      assert.equal(tags.suffix, format);
      assert.equal(tags.year, 1991);
      assert.equal(tags.hasPicture, true);
      assert.ok(tags.bitRate! >= 0);
    });
  }

  test('a file without title or artist is named after the file and filed under the unknown artist', async () => {
    const written = await writeTestTrack(dir, 'Some Name.flac', 'flac', {});
    const tags = await readFileTags(written.path);
    assert.equal(tags.metadata.title, 'Some Name');
    assert.equal(tags.metadata.artist, UNKNOWN_ARTIST);
    assert.equal(tags.hasPicture, false);
    assert.equal(tags.year, undefined);
  });

  test('a picture counts only when its bytes are an image, whatever its tag declares; the name given names the file', async () => {
    const html = new TextEncoder().encode('<html><script>alert(1)</script></html>');
    for (const format of ['mp3', 'flac', 'ogg'] as const) {
      const lying = await writeTestTrack(dir, `lying.${format}`, format, { title: 'Lie', picture: { mime: 'image/png', data: html } });
      assert.equal((await readFileTags(lying.path)).hasPicture, false, format);
      const honest = await writeTestTrack(dir, `declared-html.${format}`, format, { title: 'Odd', picture: { mime: 'text/html', data: testPng() } });
      assert.equal((await readFileTags(honest.path)).hasPicture, true, format);
    }
    // A link's target read under the link's own name: the suffix and fallback title are the link's.
    const target = await writeTestTrack(dir, 'target.flac', 'flac', {});
    const linked = await readFileTags(target.path, 'Shown Name.flac');
    assert.equal(linked.metadata.title, 'Shown Name');
  });

  test('an Ogg file whose first pages end before its audio gets its duration from the whole stream, up to the size cap', async () => {
    // Three minutes of Opus is 36 pages: the parser's quick look stops after 13, short of the last page's granule position.
    const written = await writeTestTrack(dir, 'long.ogg', 'ogg', { title: 'Long', artist: 'Band' }, { durationMs: 180_000 });
    const tags = await readFileTags(written.path);
    assert.equal(tags.durationMs, written.durationMs);
    assert.equal(tags.metadata.durationMs, written.durationMs);
    const capped = await readFileTags(written.path, written.path, written.bytes.length - 1);
    assert.equal(capped.durationMs, undefined, 'a file over the cap is not read through');
    assert.equal(capped.metadata.title, 'Long', 'and is still read for its tags');
  });

  test('several artists read as the first featuring the rest', async () => {
    const written = await writeTestTrack(dir, 'multi.mp3', 'mp3', { title: 'Duet', artist: ['One', 'Two', 'Three'] });
    assert.equal((await readFileTags(written.path)).metadata.artist, 'One feat. Two, Three');
  });

  test('values over the listen rules are cut or dropped, never refused', async () => {
    const written = await writeTestTrack(dir, 'huge.ogg', 'ogg', {
      title: 't'.repeat(MAX_NAME_LENGTH + 10),
      artist: `a\u0000b`,
      genre: 'g'.repeat(MAX_GENRE_LENGTH * 2),
      lyrics: 'l'.repeat(MAX_LYRICS_LENGTH + 5),
      mbid: 'not-a-uuid',
      isrc: 'nope',
      bpm: 1e12,
      trackNumber: 99_999_999_999,
    });
    const { metadata } = await readFileTags(written.path);
    assert.equal(metadata.title.length, MAX_NAME_LENGTH);
    assert.equal(metadata.artist, 'ab');
    assert.equal(metadata.genre!.length, MAX_GENRE_LENGTH);
    assert.equal(metadata.lyrics!.length, MAX_LYRICS_LENGTH);
    assert.equal(metadata.mbid, undefined);
    assert.equal(metadata.isrc, undefined);
    assert.equal(metadata.bpm, undefined);
    assert.equal(metadata.trackNumber, undefined);
  });

  test('audio is told from other files by extension', () => {
    assert.ok(isAudioFile('a/B.FLAC'));
    assert.ok(isAudioFile('x.opus'));
    assert.ok(!isAudioFile('cover.jpg'));
    assert.ok(!isAudioFile('notes.txt'));
    assert.ok(!isAudioFile('constructor'));
  });
});
