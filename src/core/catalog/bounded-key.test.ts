import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { testBackends } from '../../toolkit/db/testing.ts';
import { randomText, seededRandom, type Utf8Width } from '../../toolkit/fuzz-testing.ts';
import { albumKey, artistKey, boundedKey, MAX_KEY_CODE_POINTS, titleKey } from './normalize.ts';

/** The key rewrites of migration 0005 (its index statement names a table migration 0006 replaced). */
const MIGRATION = fs
  .readFileSync(new URL('../../toolkit/db/migrations/0005_bounded_keys.sql', import.meta.url), 'utf8')
  .split(';')
  .filter((statement) => /^\s*(--[^\n]*\n\s*)*update\b/i.test(statement))
  .join(';');
const codePoints = (text: string) => Array.from(text).length;

/** Keys around the bound, of every UTF-8 width and of mixed widths. */
function sampleKeys(seed: number): string[] {
  const random = seededRandom(seed);
  const keys: string[] = [];
  for (const width of [1, 2, 3, 4] as Utf8Width[]) {
    for (const length of [1, MAX_KEY_CODE_POINTS - 1, MAX_KEY_CODE_POINTS, MAX_KEY_CODE_POINTS + 1, 300, 600]) keys.push(randomText(random, length, width));
  }
  for (let i = 0; i < 20; i++) {
    const parts = Array.from({ length: 1 + Math.floor(random() * 40) }, () =>
      randomText(random, 1 + Math.floor(random() * 20), (1 + Math.floor(random() * 4)) as Utf8Width),
    );
    keys.push(parts.join(' '));
  }
  return keys;
}

test('keys up to the bound are unchanged; longer ones are a prefix, "#" and the SHA-256, longer than any unbounded key', () => {
  for (const key of sampleKeys(1)) {
    const bounded = boundedKey(key);
    if (codePoints(key) <= MAX_KEY_CODE_POINTS) {
      assert.equal(bounded, key);
    } else {
      assert.equal(codePoints(bounded), MAX_KEY_CODE_POINTS + 65);
      assert.ok(bounded.startsWith(Array.from(key).slice(0, MAX_KEY_CODE_POINTS).join('')));
      assert.match(bounded, /#[0-9a-f]{64}$/);
    }
    assert.ok(Buffer.byteLength(bounded) <= 4 * MAX_KEY_CODE_POINTS + 65, 'every key fits a btree entry');
  }
});

test('bounded keys keep exact equality: keys sharing a long prefix stay apart, equal names stay equal', () => {
  const base = '語'.repeat(MAX_KEY_CODE_POINTS + 50);
  assert.notEqual(boundedKey(`${base}a`), boundedKey(`${base}b`));
  assert.equal(boundedKey(`${base}a`), boundedKey(`${base}a`));
  // A 1,024-character name of 3-byte letters (3,072 bytes) has a key of at most 865 bytes.
  const name = '語'.repeat(1024);
  for (const key of [artistKey(name), titleKey(name), albumKey(name)]) assert.ok(Buffer.byteLength(key) <= 865);
  assert.equal(artistKey(`${name} feat. Someone`), artistKey(name));
  // NFKD makes a key longer than its name: 1,024 "ﷺ" fold to 18,432 characters.
  assert.ok(Buffer.byteLength(titleKey('ﷺ'.repeat(1024))) <= 865);
});

for (const backend of testBackends()) {
  describe(`migration 0005 bounds keys exactly as boundedKey does [${backend.name}]`, () => {
    let db: Database;
    let close: () => Promise<void>;
    before(async () => ({ db, close } = await backend.open()));
    after(() => close());

    test('over-long keys stored by earlier versions are rewritten to the JS formula; short ones are kept', async () => {
      // Raw keys as the unbounded code stored them; all stay under the btree limit to be insertable.
      const keys = sampleKeys(2).filter((key) => Buffer.byteLength(key) < 2600);
      const artists = await db
        .insertInto('artists')
        .values(keys.map((key, i) => ({ name: `artist ${i}`, name_key: key })))
        .returning(['id', 'name_key'])
        .execute();
      const albums = await db
        .insertInto('albums')
        .values(artists.map((artist) => ({ title: 'album', title_key: artist.name_key, artist: 'a', artist_id: artist.id })))
        .returning(['id', 'title_key'])
        .execute();
      const tracks = await db
        .insertInto('tracks')
        .values(artists.map((artist) => ({ title: 't', title_key: artist.name_key, artist: 'a', artist_id: artist.id })))
        .returning(['id', 'title_key'])
        .execute();
      await db.transaction().execute((tx) => sql.raw(MIGRATION).execute(tx));
      const artistKeys = new Map((await db.selectFrom('artists').select(['id', 'name_key']).execute()).map((row) => [row.id, row.name_key]));
      const albumKeys = new Map((await db.selectFrom('albums').select(['id', 'title_key']).execute()).map((row) => [row.id, row.title_key]));
      const trackKeys = new Map((await db.selectFrom('tracks').select(['id', 'title_key']).execute()).map((row) => [row.id, row.title_key]));
      assert.ok(
        keys.some((key) => codePoints(key) > MAX_KEY_CODE_POINTS),
        'some keys need bounding',
      );
      artists.forEach((row) => assert.equal(artistKeys.get(row.id), boundedKey(row.name_key)));
      albums.forEach((row) => assert.equal(albumKeys.get(row.id), boundedKey(row.title_key)));
      tracks.forEach((row) => assert.equal(trackKeys.get(row.id), boundedKey(row.title_key)));
    });
  });
}
