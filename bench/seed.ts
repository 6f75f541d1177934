import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../src/toolkit/db/index.ts';

/**
 * A realistic seed for benchmarks: a catalog of thousands of artists, albums and tracks, many
 * users, and plays laid out on the heap in listening order across users, as live ingest lays
 * them out (a user's rows are spread over the table, not stored side by side).
 */
export interface SeedOptions {
  otherUsers?: number;
  otherPlays?: number;
  tracks?: number;
  heavy?: { handle: string; plays: number; year: number; playsBefore?: number }[];
}

export interface SeededUser {
  id: string;
  did: string;
  handle: string;
}

export interface Seeded {
  /** Every seeded user: the other users, then the heavy ones. */
  users: SeededUser[];
  heavy: Record<string, SeededUser>;
}

const DAY = 24 * 3600;
const YEAR = 365 * DAY;
/** Plays inserted per statement: big enough to be set-based, small enough for PGlite's memory. */
const CHUNK_PLAYS = 200_000;
const WORDS = [
  'Love',
  'Night',
  'Heart',
  'Summer',
  'Rain',
  'Fire',
  'Dream',
  'City',
  'River',
  'Light',
  'Shadow',
  'Gold',
  'Blue',
  'Wild',
  'Home',
  'Road',
  'Star',
  'Ocean',
  'Ghost',
  'Glass',
  'Paper',
  'Silver',
  'Stone',
  'Dance',
  'Song',
  'Morning',
  'Winter',
  'Echo',
  'Mirror',
  'Garden',
  'Thunder',
  'Velvet',
  'Neon',
  'Honey',
  'Electric',
  'Midnight',
  'Lonely',
  'Golden',
  'Broken',
  'Secret',
];
const GENRES = ['Rock', 'Pop', 'Jazz', 'Electronic', 'Hip-Hop', 'Folk', 'Classical', 'Metal', 'Soul', 'Indie', 'Ambient', 'Punk'];

const sizeFrom = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/**
 * Artists (one per 20 tracks, two albums each), albums (one per 10 tracks, with genre, year and
 * cover), tracks (titles from two words of WORDS, so one in twenty has "Love" in it; a genre of
 * their own on one in three; durations; creation times an hour apart, shuffled against the titles).
 */
async function seedCatalog(db: Database, tracks: number): Promise<void> {
  const albums = Math.ceil(tracks / 10);
  const artists = Math.ceil(albums / 2);
  const words = sql`${sql.val(WORDS)}::text[]`;
  const genres = sql`${sql.val(GENRES)}::text[]`;
  await sql`insert into artists (name, name_key, genres)
    select 'Artist ' || i, 'artist ' || i, array[(${genres})[1 + i % ${GENRES.length}]]
    from generate_series(1, ${artists}) i`.execute(db);
  await sql`insert into albums (title, title_key, artist, artist_id, album_art, year, genre)
    select 'Album ' || i, 'album ' || i, a.name, a.id, 'https://covers.example/album/' || i || '.jpg', 1970 + i % 55,
      (${genres})[1 + (i / 2) % ${GENRES.length}]
    from generate_series(1, ${albums}) i join artists a on a.name_key = 'artist ' || (1 + (i - 1) / 2)`.execute(db);
  await sql`insert into tracks (title, title_key, artist, artist_id, album, album_id, album_artist, album_art, duration,
      track_number, disc_number, genre, created_at)
    select w.title, lower(w.title), al.artist, al.artist_id, al.title, al.id, al.artist, al.album_art, 120000 + (i * 7919) % 240000,
      1 + (i - 1) % 10, 1, case when i % 3 = 0 then (${genres})[1 + i % ${GENRES.length}] end,
      now() - ((i::bigint * 7919) % ${tracks}) * interval '1 hour'
    from generate_series(1, ${tracks}) i
    cross join lateral (select (${words})[1 + i % ${WORDS.length}] || ' ' || (${words})[1 + (i / ${WORDS.length}) % ${WORDS.length}] as title) w
    join albums al on al.title_key = 'album ' || (1 + (i - 1) / 10)`.execute(db);
}

async function insertUsers(db: Database, handles: string[]): Promise<SeededUser[]> {
  if (handles.length === 0) return [];
  const rows = await db
    .insertInto('users')
    .values(handles.map((handle) => ({ did: `did:plc:${handle.replace(/[^a-z0-9]/g, '')}${randomBytes(4).toString('hex')}`, handle })))
    .returning(['id', 'did', 'handle'])
    .execute();
  return handles.map((handle) => rows.find((row) => row.handle === handle)!);
}

/** Plays at t0 + k * step (seconds) for k in [0, count): one user's, or spread over several with a skew. */
interface Stream {
  userIds: string[];
  count: number;
  t0: number;
  step: number;
}

/** The k of `stream` whose time falls in [from, to). */
function kRange(stream: Stream, from: number, to: number): [number, number] {
  const first = Math.max(0, Math.ceil((from - stream.t0) / stream.step));
  const last = Math.min(stream.count, Math.ceil((to - stream.t0) / stream.step));
  return [first, last];
}

/**
 * One stream's plays in [first, last): users picked with a skew (some listen far more than others),
 * tracks with a stronger one (a few songs are played far more than most), `submitted` as a client sends it.
 */
function streamRows(stream: Stream, first: number, last: number, trackCount: number) {
  const users = sql`${sql.val(stream.userIds)}::uuid[]`;
  return sql`select (${users})[1 + floor(${stream.userIds.length} * power(random(), 1.5))::int] as user_id,
      1 + floor(${trackCount} * power(random(), 2.5))::int as n,
      to_timestamp(${stream.t0}::float8 + k * ${stream.step}::float8) as listened_at
    from generate_series(${first}::int, ${last - 1}::int) k`;
}

/**
 * All plays, in time order across every stream, one time slice per statement, so the heap holds
 * them as a live server would have written them.
 */
async function seedPlays(db: Database, streams: Stream[], trackCount: number): Promise<void> {
  const total = streams.reduce((sum, stream) => sum + stream.count, 0);
  if (total === 0) return;
  const start = Math.min(...streams.map((stream) => stream.t0));
  const end = Math.max(...streams.map((stream) => stream.t0 + stream.count * stream.step));
  const slices = Math.ceil(total / CHUNK_PLAYS);
  const width = (end - start) / slices;
  for (let slice = 0; slice < slices; slice++) {
    const from = start + slice * width;
    const to = slice === slices - 1 ? end + 1 : from + width;
    const parts = streams.map((stream) => [stream, ...kRange(stream, from, to)] as const).filter(([, first, last]) => last > first);
    if (parts.length === 0) continue;
    const plays = sql.join(
      parts.map(([stream, first, last]) => streamRows(stream, first, last, trackCount)),
      sql` union all `,
    );
    await sql`insert into scrobbles (user_id, track_id, listened_at, submitted, source)
      select p.user_id, t.id, p.listened_at, jsonb_build_object('artist', t.artist, 'title', t.title, 'album', t.album), 'seed'
      from (${plays}) p join (select id, artist, title, album, row_number() over (order by id)::int as n from tracks) t on t.n = p.n
      order by p.listened_at`.execute(db);
  }
}

/**
 * Statistics and visibility as a live database would have them: PostgreSQL's autovacuum vacuums
 * an insert-mostly table too (which lets index-only scans skip the heap); PGlite, a single
 * process, runs no autovacuum, so there only `analyze` (what the server's own queries see).
 */
async function settle(db: Database): Promise<void> {
  const launcher = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where backend_type = 'autovacuum launcher'`.execute(db);
  // The seeded tables only: on a shared server, a bare `vacuum` would go through every schema.
  const tables = 'scrobbles, tracks, albums, artists, users';
  await sql.raw(`${launcher.rows[0]!.n > 0 ? 'vacuum analyze' : 'analyze'} ${tables}`).execute(db);
}

/**
 * Seeds a fresh database (its catalog must be empty): `tracks` tracks, `otherUsers` users sharing
 * `otherPlays` plays over the three years up to now, and each heavy user with `plays` plays in
 * calendar year `year` (UTC) and `playsBefore` (default a quarter of that) over the two years
 * before, everything interleaved in time. Sizes default to BENCH_TRACKS, BENCH_OTHER_USERS and
 * BENCH_OTHER_PLAYS. Ends with `analyze` (and `vacuum` on PostgreSQL), as autovacuum would on a live database.
 */
export async function seedRealistic(db: Database, options: SeedOptions = {}): Promise<Seeded> {
  const trackCount = options.tracks ?? sizeFrom('BENCH_TRACKS', 20_000);
  const otherUsers = options.otherUsers ?? sizeFrom('BENCH_OTHER_USERS', 100);
  const otherPlays = options.otherPlays ?? sizeFrom('BENCH_OTHER_PLAYS', 1_000_000);
  const heavy = options.heavy ?? [];
  const existing = await db.selectFrom('tracks').select('id').limit(1).executeTakeFirst();
  if (existing) throw new Error('seedRealistic needs an empty catalog');

  await seedCatalog(db, trackCount);
  const tag = randomBytes(3).toString('hex');
  const others = await insertUsers(
    db,
    Array.from({ length: otherUsers }, (_, i) => `listener${i + 1}-${tag}`),
  );
  const heavyUsers = await insertUsers(
    db,
    heavy.map((user) => user.handle),
  );

  const now = Math.floor(Date.now() / 1000);
  const streams: Stream[] = [];
  heavy.forEach((user, i) => {
    const yearStart = Date.UTC(user.year, 0, 1) / 1000;
    const yearLength = Date.UTC(user.year + 1, 0, 1) / 1000 - yearStart;
    const before = user.playsBefore ?? Math.floor(user.plays / 4);
    const ids = [heavyUsers[i]!.id];
    if (before > 0) streams.push({ userIds: ids, count: before, t0: yearStart - 2 * YEAR, step: (2 * YEAR) / before });
    if (user.plays > 0) streams.push({ userIds: ids, count: user.plays, t0: yearStart + yearLength / user.plays / 2, step: yearLength / user.plays });
  });
  const othersFrom = Math.min(now - 3 * YEAR, ...streams.map((stream) => stream.t0));
  if (otherUsers > 0 && otherPlays > 0) {
    streams.push({ userIds: others.map((user) => user.id), count: otherPlays, t0: othersFrom, step: (now - othersFrom) / otherPlays });
  }
  await seedPlays(db, streams, trackCount);
  await settle(db);
  return {
    users: [...others, ...heavyUsers],
    heavy: Object.fromEntries(heavyUsers.map((user) => [user.handle, user])),
  };
}
