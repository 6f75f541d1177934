import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import type { SortKey } from './page-query.ts';
import { NEWEST_FIRST, songPlayCount } from './song-view.ts';

/**
 * Columns getSongs sorts by. All but playCount are columns of the song; playCount reads each
 * song's all-time plays (one index probe a song), the price of a "most played" view.
 */
const SORT_COLUMNS = {
  createdAt: sql.ref('t.created_at'),
  title: sql`lower(t.title)`,
  artist: sql`lower(t.artist)`,
  album: sql`lower(t.album)`,
  duration: sql.ref('t.duration'),
  playCount: songPlayCount,
} as const;

type SortField = keyof typeof SORT_COLUMNS;
const FIELDS = Object.keys(SORT_COLUMNS) as SortField[];

/** `field` ascending, `-field` descending; `-createdAt` (newest first) is the default. */
export const SongSort = Type.Union(
  FIELDS.flatMap((field) => [Type.Literal(field), Type.Literal(`-${field}` as const)]),
  { default: '-createdAt', description: `one of ${FIELDS.join(', ')}; a leading "-" sorts descending` },
);

/**
 * The ORDER BY of a sort: songs without a value last whichever the direction, then
 * the id in the same direction, so pages never overlap or skip.
 */
export function songOrder(sort: string | undefined): readonly SortKey[] {
  if (!sort || sort === '-createdAt') return NEWEST_FIRST;
  const direction = sort.startsWith('-') ? 'desc' : 'asc';
  const column = SORT_COLUMNS[sort.replace(/^-/, '') as SortField];
  return [
    { expression: sql`${column} is null`, direction: 'asc' },
    { expression: column, direction },
    { expression: sql.ref('t.id'), direction },
  ];
}
