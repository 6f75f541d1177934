import { sql } from 'kysely';
import { invalidRequest, notFound } from '../../toolkit/errors.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { integerTimestamp, parseJson } from './submission.ts';
import { isJsonObject } from '../../core/scrobbling/listen-json.ts';

/**
 * ListenBrainz's latest-import: the newest listen an importer has sent, per user and import
 * service, so that it resumes where it stopped. As on ListenBrainz the service defaults to
 * lastfm, an unknown one is 404, and the timestamp only ever moves forward.
 */
export const IMPORT_SERVICES = ['lastfm', 'librefm', 'spotify', 'listenbrainz'] as const;
const DEFAULT_SERVICE = 'lastfm';

/** A service name, any case, or ListenBrainz's 404 for one it does not know. */
export function importService(value: unknown): string {
  const name = value === undefined || value === null ? DEFAULT_SERVICE : value;
  if (typeof name !== 'string' || !(IMPORT_SERVICES as readonly string[]).includes(name.toLowerCase()))
    throw notFound(`Service does not exist: ${String(name)}`);
  return name.toLowerCase();
}

/** A POST body `{ts, service?}`; a missing ts is 0, which changes nothing. */
export function parseLatestImport(body: string): { ts: number; service: string } {
  const document = parseJson(body);
  if (!isJsonObject(document)) throw invalidRequest('Invalid data sent');
  const ts = 'ts' in document ? integerTimestamp(document.ts) : 0;
  if (ts === null || ts < 0) throw invalidRequest('Invalid data sent');
  return { ts, service: importService(document.service) };
}

/** The stored timestamp, unix seconds; 0 when none. */
export async function latestImport(db: Database, userId: string, service: string): Promise<number> {
  const row = await db.selectFrom('lb_latest_imports').select('latest_import').where('user_id', '=', userId).where('service', '=', service).executeTakeFirst();
  return row ? Number(row.latest_import) : 0;
}

/** Stores `ts` unless an equal or newer one is stored already. */
export async function updateLatestImport(db: Database, userId: string, service: string, ts: number): Promise<void> {
  await db
    .insertInto('lb_latest_imports')
    .values({ user_id: userId, service, latest_import: ts })
    .onConflict((oc) =>
      oc.columns(['user_id', 'service']).doUpdateSet({ latest_import: ts, updated_at: sql`now()` }).where('lb_latest_imports.latest_import', '<', ts),
    )
    .execute();
}
