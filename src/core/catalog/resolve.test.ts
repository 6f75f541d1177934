import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '../../toolkit/db/index.ts';
import { inTransaction } from '../../toolkit/db/index.ts';
import { testBackends } from '../../toolkit/db/testing.ts';
import { resolveTrack, resolveTracks } from './resolve.ts';
import type { TrackMetadata } from './track-metadata.ts';
import { seededRandom as random } from '../../toolkit/fuzz-testing.ts';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * Listens over a small pool, so names, spellings and identifiers collide
 * often: artist credits with guests and odd case, titles with "(feat. …)",
 * albums or none, and recording MBIDs, ISRCs, artist MBIDs and durations now and then.
 */
function listens(seed: number, count: number, prefix: string): TrackMetadata[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  return Array.from({ length: count }, () => {
    const artist = pick([0, 1, 2, 3]);
    const title = `${prefix} Song ${pick([0, 1, 2, 3, 4])}`;
    const metadata: TrackMetadata = {
      artist: pick([
        `${prefix} Band ${artist}`,
        `${prefix} BAND ${artist}`,
        `${prefix} Band ${artist} feat. Guest`,
        ` ${prefix.toLowerCase()}  band ${artist}`,
      ]),
      title: pick([title, title.toUpperCase(), `${title} (feat. Guest)`]),
    };
    if (chance(0.6)) metadata.album = pick([`${prefix} Album ${artist}`, `${prefix} Album ${artist} Deluxe`]);
    if (chance(0.3)) metadata.mbid = uuid(seed * 100 + pick([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    if (chance(0.2)) metadata.isrc = pick(['usrc1', 'GBAYE', 'frz03']) + String(seed * 10 + pick([1, 2, 3])).padStart(7, '0');
    if (chance(0.1)) metadata.artistMbid = uuid(seed * 100 + 50 + artist);
    if (chance(0.3)) metadata.durationMs = 1000 * pick([180, 200, 240]);
    return metadata;
  });
}

/** What a listen resolved to, by content rather than id, so two databases compare. */
async function describeTracks(db: Database, trackIds: (string | undefined)[]): Promise<(string | null)[]> {
  const ids = trackIds.filter((id): id is string => id !== undefined);
  const rows = ids.length
    ? await db
        .selectFrom('tracks')
        .innerJoin('artists', 'artists.id', 'tracks.artist_id')
        .leftJoin('albums', 'albums.id', 'tracks.album_id')
        .select(['tracks.id', 'tracks.title_key', 'artists.name_key', 'albums.title_key as album', 'tracks.mbid', 'tracks.isrc', 'tracks.duration'])
        .where('tracks.id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(rows.map(({ id, ...content }) => [id, JSON.stringify(content)]));
  return trackIds.map((id) => (id === undefined ? null : byId.get(id)!));
}

async function catalogSize(db: Database): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  for (const table of ['artists', 'albums', 'tracks'] as const) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    sizes[table] = Number(row.n);
  }
  return sizes;
}

for (const backend of testBackends()) {
  describe(`resolve: one listen and a batch agree [${backend.name}]`, () => {
    const opened: { db: Database; close(): Promise<void> }[] = [];
    before(async () => {
      opened.push(await backend.open(), await backend.open());
    });
    after(() => Promise.all(opened.map((storage) => storage.close())));

    test('an identifier one listen of a batch gives a track is found by later listens of the same batch, as one by one', async () => {
      for (const [db, resolveAll] of [
        [
          opened[0]!.db,
          async (items: TrackMetadata[]) => {
            const out = [];
            for (const item of items) out.push(await inTransaction(opened[0]!.db, (tx) => resolveTrack(tx, item, true)));
            return out;
          },
        ],
        [opened[1]!.db, (items: TrackMetadata[]) => inTransaction(opened[1]!.db, (tx) => resolveTracks(tx, items, true))],
      ] as const) {
        const [known] = await inTransaction(db, (tx) => resolveTracks(tx, [{ artist: 'Gap Filler', title: 'Untagged' }], true));
        const mbid = uuid(999);
        const resolved = await resolveAll([
          { artist: 'Gap Filler', title: 'Untagged', mbid },
          { artist: 'Someone Else', title: 'Another Name', mbid },
        ]);
        assert.deepEqual(
          resolved.map((track) => track?.trackId),
          [known!.trackId, known!.trackId],
        );
      }
    });

    for (const seed of [1, 2, 3, 4, 5]) {
      test(`seed ${seed}: resolving listens one by one and as one batch gives the same tracks, flags and catalog`, async () => {
        const [one, batch] = [opened[0]!.db, opened[1]!.db];
        const prefix = `S${seed}`;
        // A catalog both databases already hold, made the same way in each.
        const known = listens(seed, 30, prefix);
        for (const db of [one, batch]) await inTransaction(db, (tx) => resolveTracks(tx, known, true));
        const create = seed % 2 === 1;
        const items = listens(seed + 1000, 60, prefix);
        const single = [];
        for (const item of items) single.push(await inTransaction(one, (tx) => resolveTrack(tx, item, create)));
        const together = await inTransaction(batch, (tx) => resolveTracks(tx, items, create));
        assert.deepEqual(
          together.map((track) => track?.matched ?? null),
          single.map((track) => track?.matched ?? null),
        );
        assert.deepEqual(
          await describeTracks(
            batch,
            together.map((track) => track?.trackId),
          ),
          await describeTracks(
            one,
            single.map((track) => track?.trackId),
          ),
        );
        assert.deepEqual(await catalogSize(batch), await catalogSize(one));
      });
    }
  });
}
