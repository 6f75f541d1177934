import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomText, seededRandom, type Utf8Width } from '../../toolkit/fuzz-testing.ts';
import { listenProblem, MAX_SUBMITTED_DEPTH, metadataProblem, submissionProblem, submittedProblem, utf8Length } from './listen-rules.ts';
import { longerThan, MAX_GENRE_LENGTH, MAX_NAME_LENGTH, MAX_TAG_LENGTH } from '../catalog/field-rules.ts';

const track = { artist: 'Air', title: 'Playground Love' };

test('longerThan counts code points, whatever the UTF-16 length', () => {
  const random = seededRandom(3);
  for (let i = 0; i < 200; i++) {
    const width = (1 + Math.floor(random() * 4)) as Utf8Width;
    const text = randomText(random, Math.floor(random() * 40), width);
    const max = Math.floor(random() * 40);
    assert.equal(longerThan(text, max), Array.from(text).length > max, `${width}-byte × ${Array.from(text).length} vs ${max}`);
  }
});

test('utf8Length counts bytes as Buffer.byteLength does, lone surrogates included', () => {
  const random = seededRandom(5);
  const odd = ['', '\ud800', 'a\udc00', '\ud83d', '\ud83d\ude00\ud83d', '\udc00\ud800'];
  const texts = [...odd, ...Array.from({ length: 200 }, () => randomText(random, Math.floor(random() * 40), (1 + Math.floor(random() * 4)) as Utf8Width))];
  for (const text of texts) assert.equal(utf8Length(text), Buffer.byteLength(text), JSON.stringify(text));
});

test('names of exactly the limit pass in characters of any width; one more is refused', () => {
  const random = seededRandom(4);
  for (const width of [1, 2, 3, 4] as Utf8Width[]) {
    for (const field of ['artist', 'title', 'album', 'albumArtist'] as const) {
      assert.equal(metadataProblem({ ...track, [field]: randomText(random, MAX_NAME_LENGTH, width) }), null, `${field} ${width}`);
      assert.match(metadataProblem({ ...track, [field]: randomText(random, MAX_NAME_LENGTH + 1, width) }) ?? '', /longer than 1024 characters/);
    }
  }
});

test('indexed values keep to their shapes and lengths, so no btree entry can overflow', () => {
  assert.equal(metadataProblem({ ...track, genre: '語'.repeat(MAX_GENRE_LENGTH) }), null);
  assert.match(metadataProblem({ ...track, genre: 'a'.repeat(MAX_GENRE_LENGTH + 1) }) ?? '', /genre is longer/);
  assert.match(metadataProblem({ ...track, spotifyId: '語'.repeat(22) }) ?? '', /spotify id/);
  assert.equal(metadataProblem({ ...track, spotifyId: '4uLU6hMCjMI75M1A2tKUQC' }), null);
  assert.match(metadataProblem({ ...track, mbid: 'x'.repeat(2000) }) ?? '', /recording MBID/);
  assert.match(metadataProblem({ ...track, albumMbid: 'not-a-uuid' }) ?? '', /release MBID/);
  assert.match(metadataProblem({ ...track, artistMbid: 'urn:uuid:0' }) ?? '', /artist MBID/);
  assert.match(metadataProblem({ ...track, isrc: `US${'1'.repeat(2000)}` }) ?? '', /ISRC/);
  assert.equal(metadataProblem({ ...track, mbid: 'F3E9C5A0-0000-4000-8000-000000000000', isrc: 'USRC17607839' }), null);
});

test('text PostgreSQL cannot store is refused wherever it appears', () => {
  assert.match(metadataProblem({ ...track, title: 'a\u0000b' }) ?? '', /title contains a NUL/);
  assert.match(metadataProblem({ ...track, artist: 'a\ud800' }) ?? '', /artist contains a lone UTF-16 surrogate/);
  assert.match(metadataProblem({ ...track, tags: ['ok', '\udc00'] }) ?? '', /a tag contains a lone/);
  assert.equal(metadataProblem({ ...track, tags: ['😀'.repeat(MAX_TAG_LENGTH)] }), null);
  assert.match(metadataProblem({ ...track, tags: ['😀'.repeat(MAX_TAG_LENGTH + 1)] }) ?? '', /a tag is longer/);
  assert.match(submittedProblem({ info: { 'k\ud800': 1 } }) ?? '', /lone/);
  assert.match(submittedProblem({ info: ['\u0000'] }) ?? '', /NUL/);
});

test('numbers must fit their int4 columns and be finite', () => {
  for (const value of [2 ** 31, 1e308, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.match(metadataProblem({ ...track, trackNumber: value }) ?? '', /track number/, String(value));
    assert.match(metadataProblem({ ...track, discNumber: value }) ?? '', /disc number/, String(value));
    assert.match(metadataProblem({ ...track, durationMs: value }) ?? '', /duration/, String(value));
  }
  assert.equal(metadataProblem({ ...track, trackNumber: 2 ** 31 - 1, discNumber: 0 }), null);
  assert.match(submittedProblem({ n: Number.POSITIVE_INFINITY }) ?? '', /number/);
});

test('records of any depth are inspected without recursion; deeper than the limit is refused', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 1_000_000; i++) deep = [deep];
  assert.match(submittedProblem(deep) ?? '', /nested deeper than 32/);
  let limit: unknown = 1;
  for (let i = 0; i < MAX_SUBMITTED_DEPTH; i++) limit = { a: limit };
  assert.equal(submittedProblem(limit), null);
});

test('listen times: 1970 to a day ahead; invalid dates refused', () => {
  const now = Date.UTC(2026, 0, 1);
  assert.equal(listenProblem({ ...track, listenedAt: new Date(now) }, now), null);
  assert.match(listenProblem({ ...track, listenedAt: new Date(1e308) }, now) ?? '', /invalid/);
  assert.match(listenProblem({ ...track, listenedAt: new Date(-1) }, now) ?? '', /before 1970/);
  assert.match(listenProblem({ ...track, listenedAt: new Date(now + 25 * 3600_000) }, now) ?? '', /future/);
});

test('submissionProblem is listenProblem without the listen time', () => {
  assert.equal(submissionProblem({ ...track, submitted: { a: 1 } }), null);
  assert.match(submissionProblem({ ...track, submitted: { a: 'x\u0000' } }) ?? '', /NUL/);
  assert.match(submissionProblem({ ...track, artist: ' ' }) ?? '', /artist is empty/);
});
