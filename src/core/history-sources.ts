import { sql, type RawBuilder } from 'kysely';

/**
 * Where a play came from (scrobbles.source) when it is history rather than news: a file import
 * ('import:<format>') or an account synced in ('sync:<service>', whose first pass is a whole
 * history). Such plays are neither announced live nor posted to webhooks, and are relayed only to a
 * target that asks for imports. One rule for the three, so they never disagree.
 */
const HISTORY_PREFIXES = ['import:', 'sync:'] as const;

export const isHistorySource = (source: string): boolean => HISTORY_PREFIXES.some((prefix) => source.startsWith(prefix));

/** isHistorySource as a condition on a scrobbles.source column in SQL. */
export const historySourceSql = (column: RawBuilder<unknown>): RawBuilder<boolean> =>
  sql<boolean>`(${sql.join(
    HISTORY_PREFIXES.map((prefix) => sql`${column} like ${`${prefix}%`}`),
    sql` or `,
  )})`;
