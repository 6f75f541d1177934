/**
 * The screenshot demo: made-up artists and albums written as tagged files with covers into the
 * music folder and scanned, then four listeners with a year of plays drawn from a fixed-seed
 * random walk (favourites play more), folded into the statistics. Nothing here is real music.
 */
import type { TestApp } from '../../src/app/testing.ts';
import { scanLibrary } from '../../src/core/library/scan/index.ts';
import { writeTestTrack } from '../../src/core/library/test-music.ts';
import { ingestListens, type Listen } from '../../src/core/scrobbling/ingest.ts';
import { foldAll } from '../../src/core/stats/rollups/fold.ts';
import { demoCover } from './demo-art.ts';

const CATALOG = [
  {
    artist: 'Northern Lights Orchestra',
    genre: 'Ambient',
    albums: [
      ['Aurora Hours', 2019, ['First Light', 'Polar Night', 'Magnetic', 'Slow Thaw', 'Ice Choir']],
      ['Tundra', 2023, ['Permafrost', 'Reindeer Roads', 'Whiteout', 'Midnight Sun']],
    ],
  },
  {
    artist: 'Mara Velasquez',
    genre: 'Indie Pop',
    albums: [
      ['Paper Boats', 2021, ['Paper Boats', 'Harbour Town', 'Salt in My Hair', 'Lighthouse Keeper', 'Low Tide']],
      ['Neon Siesta', 2024, ['Neon Siesta', 'Night Bus', 'Telephone Love', 'Sunday Static']],
    ],
  },
  {
    artist: 'The Quiet Engines',
    genre: 'Post-Rock',
    albums: [
      ['Engines at Rest', 2018, ['Ignition', 'Long Haul', 'Diesel Dreams', 'Coast Road']],
      ['Signal Fires', 2022, ['Signal Fires', 'Radio Silence', 'The Night Shift', 'Ember']],
    ],
  },
  { artist: 'Kofi Mensah', genre: 'Afrobeat', albums: [['Accra by Night', 2020, ['Accra by Night', 'Palm Wine', 'Trotro', 'Harmattan']]] },
  { artist: 'Ingrid Åkesson', genre: 'Folk', albums: [['Björkens Sång', 2017, ['Björkens Sång', 'Midsommar', 'Fjällvind', 'Vinterväg']]] },
  { artist: 'Luna Park', genre: 'Synthwave', albums: [['Night Drive', 2023, ['Night Drive', 'Chrome Hearts', 'Palm Boulevard', 'Sunset Grid', 'Arcade']]] },
] as const;

const LISTENERS = [
  { handle: 'mira', plays: 1400 },
  { handle: 'jun', plays: 700 },
  { handle: 'ola', plays: 450 },
  { handle: 'sam', plays: 250 },
];

export interface Demo {
  handle: string;
  password: string;
  /** Ids of a page of each kind worth showing. */
  artist: string;
  album: string;
  playingAlbum: string;
}

/** A small fixed-seed generator (mulberry32), so every run draws the same plays. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export async function seedDemo(app: TestApp, musicDir: string): Promise<Demo> {
  const songs: Listen[] = [];
  for (const { artist, genre, albums } of CATALOG) {
    for (const [album, year, titles] of albums) {
      const picture = { mime: 'image/png', data: demoCover(album) };
      for (const [index, title] of titles.entries()) {
        const durationMs = 150_000 + ((title.length * 7919) % 120) * 1000;
        const tags = { title, artist, album, albumArtist: artist, genre, year, trackNumber: index + 1, picture };
        await writeTestTrack(musicDir, `${artist}/${album}/${String(index + 1).padStart(2, '0')} ${title}.mp3`, 'mp3', tags, { durationMs });
        songs.push({ artist, title, album, albumArtist: artist, durationMs, listenedAt: new Date(0) });
      }
    }
  }
  await scanLibrary(app.ctx);

  const password = 'demo password, not secret';
  const now = Date.now();
  for (const [n, listener] of LISTENERS.entries()) {
    await app.signup(listener.handle, password);
    const user = await app.ctx.db.selectFrom('users').select('id').where('handle', '=', listener.handle).executeTakeFirstOrThrow();
    const draw = random(n + 1);
    // Each listener favours a different stretch of the catalog: squaring the draw skews it towards the start.
    const shift = n * 7;
    const listens = Array.from({ length: listener.plays }, (_, i) => {
      const song = songs[(Math.floor(draw() ** 2 * songs.length) + shift) % songs.length]!;
      const daysAgo = (i / listener.plays) * 400 + draw();
      const hour = 7 + Math.floor(draw() * 16);
      const at = new Date(now - daysAgo * 86_400_000);
      at.setUTCHours(hour, Math.floor(draw() * 60), 0, 0);
      return { ...song, listenedAt: at };
    });
    await ingestListens(app.ctx, user.id, listens, 'import:demo');
  }
  await foldAll(app.ctx.db);

  const id = async (table: 'artists' | 'albums', column: 'name' | 'title', value: string) =>
    (await app.ctx.db.selectFrom(table).select('id').where(column, '=', value).executeTakeFirstOrThrow()).id;
  return {
    handle: LISTENERS[0]!.handle,
    password,
    artist: await id('artists', 'name', 'Mara Velasquez'),
    album: await id('albums', 'title', 'Paper Boats'),
    playingAlbum: await id('albums', 'title', 'Night Drive'),
  };
}
