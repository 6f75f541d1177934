import { sql, type Expression, type SqlBool } from 'kysely';
import { invalidRequest } from '../../toolkit/errors.ts';
import { compileRsql, type RsqlFields } from './rsql/compiler.ts';
import { RsqlError } from './rsql/parser.ts';
import { songPlayCount } from './song-view.ts';
import { spotifyTrackUrl } from './track-metadata.ts';

const text = (column: string) => ({ column: sql.ref(column), type: 'text' as const });
const integer = (column: string) => ({ column: sql.ref(column), type: 'integer' as const });

/**
 * The filterable fields of spec 4.2 over `tracks as t`; `mbid` is accepted as an alias of `mbId`, as
 * in the Song view, and `playCount` (plays by everyone, as the Song view counts them) is Earshot's own.
 */
export const SONG_FILTER_FIELDS: RsqlFields = {
  title: text('t.title'),
  artist: text('t.artist'),
  album: text('t.album'),
  albumArtist: text('t.album_artist'),
  genre: text('t.genre'),
  composer: text('t.composer'),
  label: text('t.label'),
  duration: integer('t.duration'),
  trackNumber: integer('t.track_number'),
  discNumber: integer('t.disc_number'),
  mbId: text('t.mbid'),
  mbid: text('t.mbid'),
  isrc: text('t.isrc'),
  sha256: text('t.sha256'),
  uri: text('t.uri'),
  albumUri: { column: sql`('earshot:album:' || t.album_id::text)`, type: 'text' },
  artistUri: { column: sql`('earshot:artist:' || t.artist_id::text)`, type: 'text' },
  createdAt: { column: sql.ref('t.created_at'), type: 'timestamp' },
  playCount: { column: songPlayCount, type: 'integer' },
};

export interface SongFilter {
  genre?: string | undefined;
  mbid?: string | undefined;
  isrc?: string | undefined;
  spotifyId?: string | undefined;
  filter?: string | undefined;
}

/** The WHERE condition of getSongs: every given parameter must hold. Throws 400 for a bad RSQL filter. */
export function songFilterCondition(filter: SongFilter): Expression<SqlBool> | undefined {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.genre !== undefined) conditions.push(sql<SqlBool>`lower(t.genre) = lower(cast(${filter.genre} as text))`);
  if (filter.mbid !== undefined) conditions.push(sql<SqlBool>`t.mbid = ${filter.mbid}`);
  // Stored upper-case by ingest, whatever the client sent.
  if (filter.isrc !== undefined) conditions.push(sql<SqlBool>`t.isrc = ${filter.isrc.toUpperCase()}`);
  if (filter.spotifyId !== undefined) conditions.push(sql<SqlBool>`t.streaming_link_a = ${spotifyTrackUrl(filter.spotifyId)}`);
  if (filter.filter?.trim()) conditions.push(compiledFilter(filter.filter));
  if (conditions.length === 0) return undefined;
  return sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
}

function compiledFilter(filter: string): Expression<SqlBool> {
  try {
    return compileRsql(filter, SONG_FILTER_FIELDS);
  } catch (error) {
    if (error instanceof RsqlError) throw invalidRequest(`invalid filter: ${error.message}`);
    throw error;
  }
}
