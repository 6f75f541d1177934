import { createHash } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import { RetryableConflict } from '../../toolkit/db/retry.ts';
import type { DB } from '../../toolkit/db/index.ts';
import { albumKey, artistKey, cleanText, primaryArtist, titleKey } from './normalize.ts';
import { spotifyTrackUrl, type TrackMetadata } from './track-metadata.ts';

type Tx = Transaction<DB>;
/** What reads a snapshot: a transaction, or the database outside one. */
type Reader = Kysely<DB>;

export interface ResolvedTrack {
  trackId: string;
  /** False when the catalog had no such track and it was created for this listen. */
  matched: boolean;
}

/** Catalog columns a later submission may fill when they are still empty. */
const ENRICHABLE = [
  'duration',
  'mbid',
  'isrc',
  'streaming_link_a',
  'track_number',
  'disc_number',
  'genre',
  'album_art',
  'composer',
  'label',
  'bpm',
  'key',
  'lyrics',
] as const;
type Enrichable = (typeof ENRICHABLE)[number];
type EnrichableValue = string | number;

/** SQL types of the enrichable columns, to read fill values back from JSON. */
const ENRICHABLE_TYPES: Record<Enrichable, 'integer' | 'text'> = {
  duration: 'integer',
  mbid: 'text',
  isrc: 'text',
  streaming_link_a: 'text',
  track_number: 'integer',
  disc_number: 'integer',
  genre: 'text',
  album_art: 'text',
  composer: 'text',
  label: 'text',
  bpm: 'integer',
  key: 'text',
  lyrics: 'text',
};

/** An enrichable column's bit in a candidate's `gaps`. */
const gapBit = (column: Enrichable) => 1 << ENRICHABLE.indexOf(column);

/**
 * Which enrichable columns of a track (`alias`) are still empty, one bit each (gapBit), to skip
 * needless updates: all a match needs of them, where reading the columns themselves would carry
 * every candidate's genre, lyrics and the rest back for nothing.
 */
const gapsOf = (alias: string) =>
  sql.raw(`(${ENRICHABLE.map((column) => `((${alias}.${column} is null)::int << ${ENRICHABLE.indexOf(column)})`).join(' | ')})`);

/** A candidate track: its identifiers index the snapshot, and its gaps say what a listen may fill. */
type CandidateRow = { id: string; created_at: Date; mbid: string | null; isrc: string | null; gaps: number };

const TRACK_COLUMNS = ['tracks.id', 'tracks.created_at', 'tracks.mbid', 'tracks.isrc', sql<number>`${gapsOf('tracks')}`.as('gaps')] as const;

/** The enrichable columns a submission knows values for, as [column, value] pairs. */
function knownEnrichable(metadata: TrackMetadata): [Enrichable, EnrichableValue][] {
  const values: Record<Enrichable, EnrichableValue | undefined> = {
    duration: metadata.durationMs,
    mbid: metadata.mbid,
    isrc: metadata.isrc?.toUpperCase(),
    streaming_link_a: metadata.spotifyId && spotifyTrackUrl(metadata.spotifyId),
    track_number: metadata.trackNumber,
    disc_number: metadata.discNumber,
    genre: metadata.genre,
    album_art: metadata.albumArt,
    composer: metadata.composer,
    label: metadata.label,
    bpm: metadata.bpm,
    key: metadata.key,
    lyrics: metadata.lyrics,
  };
  return ENRICHABLE.flatMap((column) => {
    const value = values[column];
    return value === undefined || value === '' ? [] : [[column, value] as [Enrichable, EnrichableValue]];
  });
}

/**
 * One resolution pass inside one transaction. Deadlock freedom comes from its
 * order: every advisory lock the pass may need is taken up front, sorted; rows
 * of existing tracks are updated only at the end, sorted by id. Until then the
 * gaps a listen fills are kept here, and the snapshot finds filled identifiers as if written.
 */
interface Pass {
  locked: ReadonlySet<string>;
  fills: Fills;
  /**
   * Albums this pass found or created, by artist, title key and album MBID: the tracks of one
   * album (a scanned folder, an imported record) look their album up once, not once each.
   */
  albums: Map<string, string>;
}

/** Per track: its empty enrichable columns as read from the catalog, and the values listens fill them with (first one wins). */
type Fills = Map<string, { gaps: number; fill: Partial<Record<Enrichable, EnrichableValue>> }>;

/** Records the catalog gaps a listen knows values for, as the coalescing update at the end will fill them. */
function enrich(fills: Fills, track: CandidateRow, metadata: TrackMetadata): void {
  const entry = fills.get(track.id) ?? { gaps: track.gaps, fill: {} };
  for (const [column, value] of knownEnrichable(metadata)) {
    if ((entry.gaps & gapBit(column)) !== 0 && entry.fill[column] === undefined) entry.fill[column] = value;
  }
  if (Object.keys(entry.fill).length > 0) fills.set(track.id, entry);
}

/**
 * Fills the recorded gaps in one statement, never overwriting a value another
 * writer set. The rows are locked first, in id order: a set-based UPDATE locks
 * rows in whatever order its plan visits them, and every writer must take
 * track row locks in one order to stay deadlock-free.
 */
async function applyFills(tx: Tx, fills: Fills): Promise<void> {
  if (fills.size === 0) return;
  const ids = [...fills.keys()].sort();
  await tx.selectFrom('tracks').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
  const rows = ids.map((id) => ({ id, ...fills.get(id)!.fill }));
  const shape = sql.raw(['id uuid', ...ENRICHABLE.map((column) => `${column} ${ENRICHABLE_TYPES[column]}`)].join(', '));
  const set = sql.join(ENRICHABLE.map((column) => sql`${sql.ref(column)} = coalesce(${sql.ref(`tracks.${column}`)}, ${sql.ref(`fill.${column}`)})`));
  const gap = sql.join(
    ENRICHABLE.map((column) => sql`(${sql.ref(`tracks.${column}`)} is null and ${sql.ref(`fill.${column}`)} is not null)`),
    sql` or `,
  );
  // A column a track gets no value for is null in its fill row, and coalesce keeps what the catalog has.
  await sql`update tracks set ${set} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as fill(${shape}) where tracks.id = fill.id and (${gap})`.execute(
    tx,
  );
}

/** A 64-bit advisory lock number for a catalog key; sorting these numbers gives every transaction the same lock order. */
function lockNumber(key: string): bigint {
  return createHash('sha256').update(key).digest().readBigInt64BE(0);
}

/** Takes the advisory locks of `keys` in ascending lock-number order, in one statement; they last until the transaction ends. */
async function lockAll(tx: Tx, keys: ReadonlySet<string>): Promise<void> {
  if (keys.size === 0) return;
  const numbers = [...new Set([...keys].map(lockNumber))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // unnest yields the array in order, and each row's lock is taken as the row is produced.
  await sql`select pg_advisory_xact_lock(n) from unnest(string_to_array(${numbers.join(',')}, ',')::bigint[]) as n`.execute(tx);
}

const artistLock = (nameKey: string) => `artist:${nameKey}`;

/**
 * The locks that serialize creating what a listen may need: its artist by name
 * key (which also covers that artist's albums and tracks) and every identifier
 * a unique or matching index keys on.
 */
function createLocks(metadata: TrackMetadata): string[] {
  return [
    artistLock(artistKey(metadata.artist)),
    metadata.artistMbid && `artist-mbid:${metadata.artistMbid}`,
    metadata.albumMbid && `album-mbid:${metadata.albumMbid}`,
    metadata.mbid && `recording:${metadata.mbid}`,
    metadata.isrc && `isrc:${metadata.isrc.toUpperCase()}`,
  ].filter((key): key is string => Boolean(key));
}

/**
 * Creating under an artist needs that artist's lock. An artist found by MBID
 * may carry another name key than the listen's; its lock was planned up front
 * when the artist existed then, and if it appeared since, the transaction runs again.
 */
function requireArtistLock(pass: Pass, nameKey: string): void {
  if (!pass.locked.has(artistLock(nameKey))) throw new RetryableConflict(`artist ${nameKey} appeared after the lock set was planned`);
}

type ArtistRow = { id: string; name_key: string; mbid: string | null; created_at: Date };
/** A candidate track with what matching by name compares. */
type NamedRow = CandidateRow & { artist_id: string | null; title_key: string; album_key: string | null };

const nameMatchKey = (artistId: string, title: string) => `${artistId} ${title}`;

const unique = <T>(values: (T | undefined | null)[]) => [
  ...new Set(values.filter((value): value is T => value !== undefined && value !== null && value !== '')),
];

function addTo<R>(index: Map<string, R[]>, key: string | null | undefined, row: R): void {
  if (!key) return;
  const rows = index.get(key);
  if (!rows) index.set(key, [row]);
  else if (!rows.includes(row)) rows.push(row);
}

const earliest = <R extends { created_at: Date }>(rows: readonly R[] | undefined) =>
  rows?.reduce<R | undefined>((best, row) => (!best || row.created_at < best.created_at ? row : best), undefined);

type NameKeys = { k: string; m: string | null; t: string; b: boolean };

/** What a listen is matched by name with: its artist's name key, artist MBID and title key, and whether it names an album. */
const nameKeys = (item: TrackMetadata): NameKeys => ({
  k: artistKey(item.artist),
  m: item.artistMbid ?? null,
  t: titleKey(item.title),
  b: item.album !== undefined,
});

/** A row of namedRows: an artist (name_key set, its MBID in mbid) or a track (title_key set), with the columns of the other kind null. */
type NamedResultRow = NamedRow & { kind: 'artist' | 'track'; name_key: string | null; alias_artist: string | null; alias_key: string | null };

/** A track row of namedRows, in the columns of its artist rows. */
const TRACK_SELECT = sql`tr.id, tr.created_at, null::text, tr.mbid, tr.isrc, ${gapsOf('tr')}, tr.artist_id, tr.title_key, al.title_key`;

/**
 * The artists the listens may be matched under (CatalogSnapshot.match picks one of them: by
 * artist MBID, by name key, and through an old name key, alias_key set) and those artists' tracks of
 * each listen's title (a track found through an old key of its title has alias_artist and
 * alias_key set), in one statement: only the (artist, title) pairs the listens name, as lists
 * of all their artists and all their titles would cross into every title of every artist.
 * Each part is a join an index serves, whatever the catalog's size; a track's album key, which
 * only prefers one of several equal titles for a listen naming an album, is read only for those.
 */
async function namedRows(tx: Reader, keys: readonly NameKeys[]): Promise<NamedResultRow[]> {
  if (keys.length === 0) return [];
  const { rows } = await sql<NamedResultRow>`
    with item as materialized (select * from json_to_recordset(${JSON.stringify(keys)}::json) as i(k text, m text, t text, b boolean)),
    art as materialized (
      select id, name_key, mbid, created_at, null::text as alias_key from artists where name_key in (select k from item)
      union
      select id, name_key, mbid, created_at, null::text from artists where mbid in (select m from item where m is not null)
      union all
      select ar.id, ar.name_key, ar.mbid, ar.created_at, a.name_key from catalog_aliases a join artists ar on ar.id = a.survivor_id
        where a.kind = 'artist' and a.name_key in (select k from item)),
    pairs as materialized (
      select artist, title, bool_or(album) as album from (
        select art.id as artist, item.t as title, item.b as album from item join art on art.alias_key is null and art.name_key = item.k
        union all select art.id, item.t, item.b from item join art on art.alias_key is null and art.mbid = item.m
        union all select art.id, item.t, item.b from item join art on art.alias_key = item.k) named
      group by artist, title)
    select 'artist' as kind, art.id, art.created_at, art.name_key, art.mbid, null::text as isrc, 0 as gaps,
      null::uuid as artist_id, null::text as title_key, null::text as album_key, null::uuid as alias_artist, art.alias_key
    from art
    union all
    select 'track', ${TRACK_SELECT}, null::uuid, null::text
    from pairs p join tracks tr on tr.artist_id = p.artist and tr.title_key = p.title left join albums al on p.album and al.id = tr.album_id
    union all
    select 'track', ${TRACK_SELECT}, a.artist_id, a.name_key
    from pairs p join catalog_aliases a on a.kind = 'song' and a.artist_id = p.artist and a.name_key = p.title
      join tracks tr on tr.id = a.survivor_id left join albums al on p.album and al.id = tr.album_id`.execute(tx);
  return rows;
}

/**
 * What the catalog holds for some listens, indexed as the matching order looks
 * things up. It is kept current through a pass: tracks the pass creates and
 * identifiers it fills are added, so a later listen of the same batch finds
 * them exactly as it would had the earlier one been committed first.
 */
class CatalogSnapshot {
  private readonly byMbid = new Map<string, NamedRow[]>();
  private readonly byIsrc = new Map<string, NamedRow[]>();
  private readonly artistsByMbid = new Map<string, ArtistRow[]>();
  private readonly artistsByKey = new Map<string, ArtistRow[]>();
  private readonly byName = new Map<string, NamedRow[]>();
  /** Old match keys catalog edits left behind (merged-away or renamed entries), to the entries that carry them now. */
  private readonly artistAliases = new Map<string, ArtistRow[]>();
  private readonly trackAliases = new Map<string, NamedRow[]>();
  /** Each listen's name keys, folded once for the snapshot's query and its match alike. */
  private readonly keys = new WeakMap<TrackMetadata, NameKeys>();

  private nameKeys(metadata: TrackMetadata): NameKeys {
    const known = this.keys.get(metadata);
    if (known) return known;
    const keys = nameKeys(metadata);
    this.keys.set(metadata, keys);
    return keys;
  }

  /**
   * Loads what the listens may match: the tracks their identifiers name (a query of its own,
   * only when they carry any), and in one statement their artists and those artists' tracks of
   * the listens' titles, whatever their number.
   */
  static async load(tx: Reader, items: readonly TrackMetadata[]): Promise<CatalogSnapshot> {
    const snapshot = new CatalogSnapshot();
    const mbids = unique(items.map((item) => item.mbid));
    const isrcs = unique(items.map((item) => item.isrc?.toUpperCase()));
    const identified =
      mbids.length || isrcs.length
        ? await tx
            .selectFrom('tracks')
            .leftJoin('albums', 'albums.id', 'tracks.album_id')
            .select([...TRACK_COLUMNS, 'tracks.artist_id', 'tracks.title_key', 'albums.title_key as album_key'])
            .where((eb) => eb.or([...(mbids.length ? [eb('tracks.mbid', 'in', mbids)] : []), ...(isrcs.length ? [eb('tracks.isrc', 'in', isrcs)] : [])]))
            .execute()
        : [];
    for (const track of identified) snapshot.addTrack(track);
    const keys = [...new Map(items.map((item) => snapshot.nameKeys(item)).map((key) => [JSON.stringify(key), key])).values()];
    for (const row of await namedRows(tx, keys)) {
      if (row.kind === 'artist') {
        const artist = { id: row.id, name_key: row.name_key!, mbid: row.mbid as string | null, created_at: row.created_at };
        if (row.alias_key === null) snapshot.addArtist(artist);
        else addTo(snapshot.artistAliases, row.alias_key, artist);
      } else {
        const { kind: _, name_key: __, alias_artist, alias_key, ...track } = row;
        if (alias_artist === null) snapshot.addTrack(track as NamedRow);
        else if (alias_key) addTo(snapshot.trackAliases, nameMatchKey(alias_artist, alias_key), track as NamedRow);
      }
    }
    return snapshot;
  }

  /** Artists a listen's artist name reaches only through an old key (a merged-away or renamed artist's). */
  aliasedArtists(name: string): ArtistRow[] {
    return this.artistAliases.get(artistKey(name)) ?? [];
  }

  artistsWithMbid(mbid: string | undefined): ArtistRow[] {
    return mbid ? (this.artistsByMbid.get(mbid) ?? []) : [];
  }

  addArtist(artist: ArtistRow): void {
    addTo(this.artistsByKey, artist.name_key, artist);
    addTo(this.artistsByMbid, artist.mbid, artist);
  }

  addTrack(track: NamedRow): void {
    addTo(this.byMbid, track.mbid as string | null, track);
    addTo(this.byIsrc, track.isrc as string | null, track);
    if (track.artist_id) addTo(this.byName, nameMatchKey(track.artist_id, track.title_key), track);
  }

  /** Records the gaps a listen fills on a track; filled identifiers find the track from now on. */
  enrich(fills: Fills, track: NamedRow, metadata: TrackMetadata): void {
    enrich(fills, track, metadata);
    const fill = fills.get(track.id)?.fill;
    if (typeof fill?.mbid === 'string') addTo(this.byMbid, fill.mbid, track);
    if (typeof fill?.isrc === 'string') addTo(this.byIsrc, fill.isrc, track);
  }

  /**
   * THE matching order, for one listen or a batch alike: the earliest track with
   * the recording MBID, then with the ISRC; else the artist (by artist MBID, then
   * by normalized name) and that artist's earliest track with the normalized
   * title, preferring one on the listen's album. The artist is returned too, so
   * a miss creates the track under it. A name or title no entry carries now
   * still finds the entry a catalog edit gave its old key to (aliases).
   */
  match(metadata: TrackMetadata): { track?: NamedRow | undefined; artist?: ArtistRow | undefined } {
    const byIdentifier =
      (metadata.mbid ? earliest(this.byMbid.get(metadata.mbid)) : undefined) ??
      (metadata.isrc ? earliest(this.byIsrc.get(metadata.isrc.toUpperCase())) : undefined);
    if (byIdentifier) return { track: byIdentifier };
    const keys = this.nameKeys(metadata);
    const artist =
      (metadata.artistMbid ? earliest(this.artistsByMbid.get(metadata.artistMbid)) : undefined) ??
      earliest(this.artistsByKey.get(keys.k)) ??
      earliest(this.artistAliases.get(keys.k));
    if (!artist) return {};
    const key = nameMatchKey(artist.id, keys.t);
    const candidates = this.byName.get(key) ?? this.trackAliases.get(key) ?? [];
    const album = metadata.album === undefined ? undefined : albumKey(metadata.album);
    const sameAlbum = album === undefined ? [] : candidates.filter((row) => row.album_key === album);
    return { track: earliest(sameAlbum.length ? sameAlbum : candidates), artist };
  }
}

async function createArtist(tx: Tx, metadata: TrackMetadata): Promise<ArtistRow> {
  const name = primaryArtist(metadata.artist);
  return tx
    .insertInto('artists')
    .values({ name, name_key: artistKey(name), mbid: metadata.artistMbid ?? null })
    .returning(['id', 'name_key', 'mbid', 'created_at'])
    .executeTakeFirstOrThrow();
}

function albumMatch(artistId: string, key: string, mbid: string | undefined) {
  return (eb: ExpressionBuilder<DB, 'albums'>) => {
    const byName = eb.and([eb('artist_id', '=', artistId), eb('title_key', '=', key)]);
    return mbid ? eb.or([eb('mbid', '=', mbid), byName]) : byName;
  };
}

async function findOrCreateAlbum(tx: Tx, pass: Pass, artistId: string, metadata: TrackMetadata): Promise<string | null> {
  if (!metadata.album) return null;
  const key = albumKey(metadata.album);
  const cacheKey = `${artistId} ${metadata.albumMbid ?? ''} ${key}`;
  const cached = pass.albums.get(cacheKey);
  if (cached) return cached;
  const id = await findOrCreateAlbumRow(tx, artistId, key, metadata.album, metadata);
  pass.albums.set(cacheKey, id);
  return id;
}

async function findOrCreateAlbumRow(tx: Tx, artistId: string, key: string, album: string, metadata: TrackMetadata): Promise<string> {
  const existing = await tx
    .selectFrom('albums')
    .select('id')
    .where(albumMatch(artistId, key, metadata.albumMbid))
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  if (existing) return existing.id;
  const aliased = await tx
    .selectFrom('catalog_aliases')
    .select('survivor_id')
    .where('kind', '=', 'album')
    .where('artist_id', '=', artistId)
    .where('name_key', '=', key)
    .executeTakeFirst();
  if (aliased) return aliased.survivor_id;
  const created = await tx
    .insertInto('albums')
    .values({
      title: cleanText(album),
      title_key: key,
      artist: cleanText(metadata.albumArtist ?? primaryArtist(metadata.artist)),
      artist_id: artistId,
      mbid: metadata.albumMbid ?? null,
      album_art: metadata.albumArt ?? null,
      year: metadata.year ?? null,
      genre: metadata.genre ?? null,
      label: metadata.label ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

async function createTrack(tx: Tx, pass: Pass, artistId: string, metadata: TrackMetadata): Promise<NamedRow> {
  const albumId = await findOrCreateAlbum(tx, pass, artistId, metadata);
  const created = await tx
    .insertInto('tracks')
    .values({
      title: cleanText(metadata.title),
      title_key: titleKey(metadata.title),
      artist: cleanText(metadata.artist),
      artist_id: artistId,
      album: metadata.album ? cleanText(metadata.album) : null,
      album_id: albumId,
      album_artist: metadata.albumArtist ? cleanText(metadata.albumArtist) : null,
      album_art: metadata.albumArt ?? null,
      duration: metadata.durationMs ?? null,
      track_number: metadata.trackNumber ?? null,
      disc_number: metadata.discNumber ?? null,
      mbid: metadata.mbid ?? null,
      isrc: metadata.isrc?.toUpperCase() ?? null,
      streaming_link_a: metadata.spotifyId ? spotifyTrackUrl(metadata.spotifyId) : null,
      tags: metadata.tags ?? [],
      genre: metadata.genre ?? null,
      composer: metadata.composer ?? null,
      label: metadata.label ?? null,
      bpm: metadata.bpm ?? null,
      key: metadata.key ?? null,
      lyrics: metadata.lyrics ?? null,
    })
    .returning([...TRACK_COLUMNS, 'tracks.artist_id', 'tracks.title_key'])
    .executeTakeFirstOrThrow();
  return { ...created, album_key: metadata.album ? albumKey(metadata.album) : null };
}

/**
 * The locks creating the listens' catalog entries may need, planned before
 * anything is written: each listen's own keys, plus the name key of any
 * artist its artist MBID or an old name key (alias) already names.
 */
function plannedLocks(snapshot: CatalogSnapshot, misses: readonly TrackMetadata[]): Set<string> {
  const keys = new Set(misses.flatMap(createLocks));
  for (const metadata of misses) {
    for (const artist of [...snapshot.artistsWithMbid(metadata.artistMbid), ...snapshot.aliasedArtists(metadata.artist)]) keys.add(artistLock(artist.name_key));
  }
  return keys;
}

/** A listen's matched track, its gaps recorded for the update at the end; null for a miss. */
function hit(pass: Pass, snapshot: CatalogSnapshot, track: NamedRow | undefined, metadata: TrackMetadata): ResolvedTrack | null {
  if (!track) return null;
  snapshot.enrich(pass.fills, track, metadata);
  return { trackId: track.id, matched: true };
}

/**
 * Resolves listens in order against a snapshot: the matching order first, and
 * for a miss (when `create` allows) a new track, under the artist it found or
 * a new one. What it creates and fills joins the snapshot at once, so the
 * listens after it see it.
 */
async function resolveInOrder(
  tx: Tx,
  pass: Pass,
  snapshot: CatalogSnapshot,
  items: readonly TrackMetadata[],
  create: boolean,
): Promise<(ResolvedTrack | null)[]> {
  const resolved: (ResolvedTrack | null)[] = [];
  for (const metadata of items) {
    const { track, artist: knownArtist } = snapshot.match(metadata);
    if (track || !create) {
      resolved.push(hit(pass, snapshot, track, metadata));
      continue;
    }
    if (knownArtist) requireArtistLock(pass, knownArtist.name_key);
    const artist = knownArtist ?? (await createArtist(tx, metadata));
    if (!knownArtist) snapshot.addArtist(artist);
    const created = await createTrack(tx, pass, artist.id, metadata);
    snapshot.addTrack(created);
    resolved.push({ trackId: created.id, matched: false });
  }
  return resolved;
}

/**
 * The catalog tracks of listens, in input order (null for an unmatched listen
 * when `create` is false); a single listen is a batch of one, and both go
 * through the one matching order (CatalogSnapshot.match). When every listen
 * matches, that is one snapshot and one update. A miss may create catalog
 * entries: then the locks of everything the misses may create are taken at
 * once, sorted, and the listens are matched again in order against a snapshot
 * read under those locks, so nothing they look for can appear behind their back.
 */
export async function resolveTracks(tx: Tx, items: readonly TrackMetadata[], create: boolean): Promise<(ResolvedTrack | null)[]> {
  let snapshot = await CatalogSnapshot.load(tx, items);
  const misses = items.filter((metadata) => !snapshot.match(metadata).track);
  const locked = create && misses.length ? plannedLocks(snapshot, misses) : new Set<string>();
  if (locked.size) {
    await lockAll(tx, locked);
    snapshot = await CatalogSnapshot.load(tx, items);
  }
  const pass: Pass = { locked, fills: new Map(), albums: new Map() };
  const resolved = await resolveInOrder(tx, pass, snapshot, items, create);
  await applyFills(tx, pass.fills);
  return resolved;
}

/**
 * What matchKnownTracks found: each listen's catalog track, in input order (undefined for one
 * the catalog lacks, which resolveTracks must resolve), and the catalog gaps they fill, which
 * fillKnownGaps writes.
 */
export interface KnownMatch {
  tracks: (ResolvedTrack | undefined)[];
  fills: Fills;
}

/**
 * The catalog tracks of the listens the catalog already has, matched against a snapshot read
 * with `reader`: a transaction, or the database itself when the storing transaction comes
 * after (an import batch matches before it waits for its checkpoint). Writes nothing; such a
 * listen creates nothing, so it takes no advisory lock: a whole batch of them costs one
 * snapshot and one update, however many there are.
 */
export async function matchKnown(reader: Reader, items: readonly TrackMetadata[]): Promise<KnownMatch> {
  const snapshot = await CatalogSnapshot.load(reader, items);
  const pass: Pass = { locked: new Set(), fills: new Map(), albums: new Map() };
  return { tracks: items.map((metadata) => hit(pass, snapshot, snapshot.match(metadata).track, metadata) ?? undefined), fills: pass.fills };
}

/** Writes the gaps a KnownMatch fills, in the storing transaction; a value another writer set meanwhile stays. */
export async function fillKnownGaps(tx: Tx, match: KnownMatch): Promise<void> {
  await applyFills(tx, match.fills);
}

/** matchKnown and fillKnownGaps in one transaction. */
export async function resolveKnownTracks(tx: Tx, items: readonly TrackMetadata[]): Promise<(ResolvedTrack | undefined)[]> {
  const match = await matchKnown(tx, items);
  await fillKnownGaps(tx, match);
  return match.tracks;
}

/**
 * The ids of the catalog tracks listens would match, in input order (undefined
 * where a listen would create one), without writing anything: no track is
 * created and no gap filled. For a dry run of an import.
 */
export async function matchKnownTracks(tx: Tx, items: readonly TrackMetadata[]): Promise<(string | undefined)[]> {
  // The snapshot's queries take `in` lists of the items' names, which SQL refuses empty (a dry run's last batch may hold no listens).
  if (items.length === 0) return [];
  const snapshot = await CatalogSnapshot.load(tx, items);
  return items.map((metadata) => snapshot.match(metadata).track?.id);
}

/** The catalog track of one listen: resolveTracks for a batch of one. */
export async function resolveTrack(tx: Tx, metadata: TrackMetadata, create: boolean): Promise<ResolvedTrack | null> {
  const [resolved] = await resolveTracks(tx, [metadata], create);
  return resolved ?? null;
}
