import assert from 'node:assert/strict';
import { test } from 'node:test';
import { artistKey } from '../catalog/normalize.ts';
import { describeWithApp, jsonRequest, scrobbleCount, type TestApp } from '../../app/testing.ts';
import { seededRandom as random, shuffled } from '../../toolkit/fuzz-testing.ts';

/**
 * Many writers naming the same new catalog entries at once, in different
 * orders: every request must succeed (no deadlock or serialization failure
 * reaches a client) and the catalog must hold each artist, album and track once.
 */

interface Song {
  artist: string;
  album: string;
  title: string;
}

/** `artists` artists with two albums of `perArtist / 2` titles each: one catalog song per entry. */
function songs(prefix: string, artists: number, perArtist: number): Song[] {
  return Array.from({ length: artists * perArtist }, (_, i) => {
    const artist = Math.floor(i / perArtist);
    const song = i % perArtist;
    return { artist: `${prefix} Artist ${artist}`, album: `${prefix} Album ${artist}-${song % 2}`, title: `${prefix} Title ${artist}-${song}` };
  });
}

/** The same name as another client might spell it: case and spacing vary, the catalog key does not. */
function respelled(name: string, next: () => number): string {
  const roll = next();
  if (roll < 0.3) return name.toUpperCase();
  if (roll < 0.6) return ` ${name.toLowerCase()}  `;
  return name;
}

async function count(app: TestApp, table: 'artists' | 'albums' | 'tracks'): Promise<number> {
  const row = await app.ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function apiKey(app: TestApp, token: string): Promise<string> {
  const created = await app.procedure('app.svc.apikey.createApikey', { name: 'client' }, token);
  assert.equal(created.status, 200);
  return created.body.key;
}

const CLIENTS = 8;
const BATCHES = 3;
const BATCH = 60;
const START = Date.UTC(2024, 0, 1) / 1000;

describeWithApp('concurrent writers', (app) => {
  test('8 ListenBrainz clients sending 60-listen batches of the same new artists in shuffled orders all succeed, each entry created once', async () => {
    const catalog = songs('Shared', 12, 5);
    const next = random(8);
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const account = await app().signup(`concurrent-lb-${c}`);
        const batches = Array.from({ length: BATCHES }, (_, b) =>
          shuffled(catalog, next).map((song, i) => ({
            listened_at: START + (b * BATCH + i) * 300,
            track_metadata: {
              artist_name: respelled(song.artist, next),
              track_name: song.title,
              release_name: song.album,
              // Later batches fill a gap of tracks earlier ones created: updates of shared rows, in shuffled orders.
              additional_info: b === 0 ? {} : { duration_ms: 1000 * (100 + catalog.indexOf(song)) },
            },
          })),
        );
        return { did: account.did, key: await apiKey(app(), account.token), batches };
      }),
    );
    const statuses = await Promise.all(
      clients.map(async (client) => {
        const answered: number[] = [];
        for (const payload of client.batches) {
          const response = await jsonRequest(`${app().scrobblerUrl}/1/submit-listens`, 'POST', {
            headers: { authorization: `Token ${client.key}` },
            body: { listen_type: 'import', payload },
          });
          answered.push(response.status);
        }
        return answered;
      }),
    );
    const failures = statuses.flat().filter((status) => status !== 200).length;
    assert.equal(failures, 0, `${failures} of ${CLIENTS * BATCHES} requests failed: ${JSON.stringify(statuses)}`);
    for (const client of clients) assert.equal(await scrobbleCount(app(), client.did), BATCHES * BATCH);
    assert.equal(await count(app(), 'artists'), 12);
    assert.equal(await count(app(), 'albums'), 24);
    assert.equal(await count(app(), 'tracks'), 60);
    const durations = await app().ctx.db.selectFrom('tracks').select(['title', 'duration']).execute();
    assert.deepEqual(
      durations.filter((track) => track.duration !== 1000 * (100 + catalog.findIndex((song) => song.title === track.title))),
      [],
    );
    const keys = await app().ctx.db.selectFrom('artists').select('name_key').execute();
    assert.deepEqual(new Set(keys.map((row) => row.name_key)), new Set(catalog.map((song) => artistKey(song.artist))));
  });

  test('two users importing overlapping histories at the same time both complete with exact counts', async () => {
    const catalog = songs('Overlap', 40, 6);
    const users = await Promise.all(['concurrent-import-a', 'concurrent-import-b'].map((handle) => app().signup(handle)));
    const before = { artists: await count(app(), 'artists'), albums: await count(app(), 'albums'), tracks: await count(app(), 'tracks') };
    const history = (seed: number) =>
      shuffled(catalog, random(seed)).map((song, i) => ({
        ...song,
        listenedAt: new Date((START + i * 240) * 1000).toISOString(),
        submitted: { i },
      }));
    const results = await Promise.all(
      users.map(async (user, u) => {
        const listens = history(100 + u);
        const fingerprint = String(u + 1).repeat(64);
        const answered: number[] = [];
        for (let from = 0; from < listens.length; from += BATCH) {
          const batch = listens.slice(from, from + BATCH);
          const response = await app().procedure(
            'app.svc.scrobble.importListens',
            { fingerprint, format: 'listenbrainz', from, records: batch.length, listens: batch, complete: from + BATCH >= listens.length },
            user.token,
          );
          answered.push(response.status);
        }
        const status = await app().query('app.svc.scrobble.getImport', { fingerprint }, user.token);
        return { answered, status: status.body };
      }),
    );
    for (const [u, result] of results.entries()) {
      assert.deepEqual(
        result.answered.filter((status) => status !== 200),
        [],
        `user ${u}: ${JSON.stringify(result.answered)}`,
      );
      assert.deepEqual(
        { consumed: result.status.recordsConsumed, stored: result.status.stored, duplicate: result.status.duplicate, complete: result.status.complete },
        { consumed: catalog.length, stored: catalog.length, duplicate: 0, complete: true },
      );
      assert.equal(await scrobbleCount(app(), users[u]!.did), catalog.length);
    }
    assert.equal((await count(app(), 'artists')) - before.artists, 40);
    assert.equal((await count(app(), 'albums')) - before.albums, 80);
    assert.equal((await count(app(), 'tracks')) - before.tracks, 240);
  });
});
