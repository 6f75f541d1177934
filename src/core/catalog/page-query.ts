import { sql, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../toolkit/db/index.ts';
import { allTimePlayStats, type TrackMatch } from '../stats/rollups/totals.ts';

export interface SortKey {
  expression: Expression<unknown>;
  direction: 'asc' | 'desc';
}

/** Which rows of a catalog query to show, in what order; expressions refer to the query's own table aliases. */
export interface PageSelection {
  where?: Expression<SqlBool> | undefined;
  order: readonly SortKey[];
  limit: number;
  offset?: number | undefined;
}

/** Per-row extras joined onto a page: lateral subqueries that may refer to the page's columns as `page.<column>`. */
export interface PageExtras {
  columns: RawBuilder<unknown>;
  joins: RawBuilder<unknown>;
  /** Common tables the joins read, computed once for the page: they may read `page`, the page's rows. */
  with?: RawBuilder<unknown>;
}

/** Any catalog query; the rows of a page are typed by the caller. */
// biome-ignore lint/suspicious/noExplicitAny: any catalog query: the caller types the rows of its page
type AnySelect = SelectQueryBuilder<any, any, any>;

const sortColumn = (index: number) => `sort_${index}`;

/**
 * Rows of one page of `source`, each with `extras` computed for that page
 * only: the page is chosen (filtered, ordered, limited) in a common table first,
 * so statistics never run over rows that are not shown. The sort keys travel
 * out of it as columns to keep the page's order.
 */
export async function selectPage<Row>(db: Database, source: AnySelect, selection: PageSelection, extras: PageExtras): Promise<Row[]> {
  const { where, order, limit, offset = 0 } = selection;
  let page = source.limit(limit).offset(offset);
  if (where) page = page.where(where);
  order.forEach((key, index) => {
    page = page.select(sql`${key.expression}`.as(sortColumn(index))).orderBy(key.expression, key.direction);
  });
  const outerOrder = order.map((key, index) => sql`${sql.ref(`page.${sortColumn(index)}`)} ${sql.raw(key.direction)}`);
  const { rows } = await sql<Row>`
    with page as materialized (${page})${extras.with ? sql`, ${extras.with}` : sql``}
    select page.*, ${extras.columns}
    from page
    ${extras.joins}
    ${outerOrder.length > 0 ? sql`order by ${sql.join(outerOrder)}` : sql``}`.execute(db);
  return rows;
}

/** Lateral join of `play_count` and `unique_listeners` of the tracks `tracks` matches, from the all-time totals (with queuedPlaysOf the page's tracks). */
export function playStatsJoin(tracks: TrackMatch): RawBuilder<unknown> {
  return sql`cross join lateral (${allTimePlayStats(tracks)}) plays`;
}
