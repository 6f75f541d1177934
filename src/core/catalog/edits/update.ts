import { sql } from 'kysely';
import { conflict, invalidRequest } from '../../../toolkit/errors.ts';
import type { StarKind } from '../../../toolkit/db/index.ts';
import {
  integerProblem,
  MAX_DURATION_MS,
  MAX_GENRE_LENGTH,
  MAX_INT4,
  MAX_NAME_LENGTH,
  MAX_SHORT_TEXT_LENGTH,
  patternProblem,
  textFieldProblem,
} from '../field-rules.ts';
import { albumKey, artistKey, cleanText, titleKey } from '../normalize.ts';
import { ISRC, MBID } from '../track-metadata.ts';
import type { EditContext } from './log.ts';
import { addAlias, lockEntries, renamedCredit, TABLE_OF } from './merge.ts';

/**
 * Fixing an entry's fields. The values meet the rules submitted metadata meets
 * (field-rules.ts); a new name gets its match key the way the matcher computes it, so
 * later scrobbles of the corrected name find the entry, and the old key stays an alias of it, so
 * scrobbles of the old spelling do too. A name another entry already has is refused: merge them.
 */

type Value = string | number | string[] | null;
export type FieldChanges = Record<string, Value | undefined>;

interface Field {
  column: string;
  problem?: (label: string, value: never) => string | null;
}

const text = (max: number) => (label: string, value: string) => textFieldProblem(label, value, max);
const integer = (max: number) => (label: string, value: number) => integerProblem(label, value, 0, max);
const pattern = (shape: RegExp, description: string) => (label: string, value: string) => patternProblem(label, value, shape, description);
const mbid = { column: 'mbid', problem: pattern(MBID, 'a UUID') };
const genre = { column: 'genre', problem: text(MAX_GENRE_LENGTH) };
const label = { column: 'label', problem: text(MAX_NAME_LENGTH) };

/** Fields each kind may fix, by input name; the name field ('name' or 'title') is handled apart, with its key. */
const FIELDS: Record<StarKind, Record<string, Field>> = {
  artist: {
    mbid,
    picture: { column: 'picture', problem: text(MAX_SHORT_TEXT_LENGTH) },
    genres: {
      column: 'genres',
      problem: (field: string, values: string[]) => values.map((value) => textFieldProblem(field, value, MAX_GENRE_LENGTH)).find(Boolean) ?? null,
    },
  },
  album: {
    mbid,
    genre,
    label,
    albumArt: { column: 'album_art', problem: text(MAX_SHORT_TEXT_LENGTH) },
    releaseDate: { column: 'release_date', problem: text(64) },
    year: { column: 'year', problem: integer(9999) },
  },
  song: {
    mbid,
    genre,
    label,
    isrc: { column: 'isrc', problem: pattern(ISRC, 'an ISRC (CC-XXX-YY-NNNNN without dashes)') },
    albumArt: { column: 'album_art', problem: text(MAX_SHORT_TEXT_LENGTH) },
    duration: { column: 'duration', problem: integer(MAX_DURATION_MS) },
    trackNumber: { column: 'track_number', problem: integer(MAX_INT4) },
    discNumber: { column: 'disc_number', problem: integer(MAX_INT4) },
    composer: { column: 'composer', problem: text(MAX_NAME_LENGTH) },
    bpm: { column: 'bpm', problem: integer(MAX_INT4) },
    key: { column: 'key', problem: text(64) },
    lyrics: { column: 'lyrics', problem: text(64 * 1024) },
  },
};

export const NAME_FIELD: Record<StarKind, 'name' | 'title'> = { artist: 'name', album: 'title', song: 'title' };

/** The columns to set for `changes`, after checking each value (400 for the first bad one). */
function columnValues(kind: StarKind, changes: FieldChanges): Map<string, Value> {
  const values = new Map<string, Value>();
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined || field === NAME_FIELD[kind]) continue;
    const rule = FIELDS[kind][field];
    if (!rule) throw invalidRequest(`a ${kind} has no field ${field} to fix`);
    const problem = value === null ? null : rule.problem?.(field, value as never);
    if (problem) throw invalidRequest(problem);
    values.set(rule.column, field === 'isrc' && typeof value === 'string' ? value.toUpperCase() : value);
  }
  return values;
}

const MATCH_KEY: Record<StarKind, (name: string) => string> = { artist: artistKey, album: albumKey, song: titleKey };

/** The entry's new name and key, refusing (409) a key another entry it would be confused with already has. */
async function renamed(edit: EditContext, kind: StarKind, entry: Record<string, unknown>, name: string) {
  const problem = textFieldProblem(NAME_FIELD[kind], name, MAX_NAME_LENGTH, true);
  if (problem) throw invalidRequest(problem);
  const clean = cleanText(name);
  const key = MATCH_KEY[kind](clean);
  let rivals = edit.tx
    .selectFrom(TABLE_OF[kind] as 'tracks')
    .select('id')
    .where('id', '!=', entry.id as string);
  rivals =
    kind === 'artist'
      ? rivals.where(sql.ref('name_key'), '=', key)
      : rivals.where('title_key', '=', key).where('artist_id', 'is not distinct from', entry.artist_id as string | null);
  if (kind === 'song') rivals = rivals.where('album_id', 'is not distinct from', entry.album_id as string | null);
  const rival = await rivals.executeTakeFirst();
  if (rival) throw conflict('EntryExists', `${kind} ${rival.id} already has that ${NAME_FIELD[kind]}: merge the two instead`);
  return { clean, key };
}

async function refuseTakenMbid(edit: EditContext, kind: StarKind, id: string, mbidValue: Value | undefined): Promise<void> {
  // Artists and albums have one entry per MBID (unique indexes); songs may share one.
  if (kind === 'song' || typeof mbidValue !== 'string') return;
  const rival = await edit.tx
    .selectFrom(TABLE_OF[kind] as 'albums')
    .select('id')
    .where('mbid', '=', mbidValue)
    .where('id', '!=', id)
    .executeTakeFirst();
  if (rival) throw conflict('EntryExists', `${kind} ${rival.id} already has that MBID: merge the two instead`);
}

/** Applies `changes` to the entry `id`; returns the log's summary. */
export async function updateEntry(edit: EditContext, kind: StarKind, id: string, changes: FieldChanges): Promise<string> {
  const values = columnValues(kind, changes);
  const nameField = NAME_FIELD[kind];
  const newName = changes[nameField];
  if (values.size === 0 && typeof newName !== 'string') throw invalidRequest(`give at least one field of the ${kind} to fix`);
  const [entry] = (await lockEntries(edit.tx, TABLE_OF[kind], kind, [id])) as unknown as Record<string, unknown>[];
  const oldName = entry![nameField] as string;
  const oldKey = entry![kind === 'artist' ? 'name_key' : 'title_key'] as string;
  await refuseTakenMbid(edit, kind, id, values.get('mbid'));
  const name = typeof newName === 'string' ? await renamed(edit, kind, entry!, newName) : undefined;
  if (name) {
    values.set(nameField, name.clean);
    values.set(kind === 'artist' ? 'name_key' : 'title_key', name.key);
  }
  const set = sql.join([...[...values].map(([column, value]) => sql`${sql.ref(column)} = ${value}`), sql`updated_at = now()`]);
  await edit.recorder.update(TABLE_OF[kind], sql`o.id = ${id}`, set);
  if (name && name.clean !== oldName) await renameReferences(edit, kind, id, oldName, name.clean);
  if (name && name.key !== oldKey) {
    await addAlias(edit, { kind, oldId: null, survivor: id, artistId: kind === 'artist' ? null : (entry!.artist_id as string | null), key: oldKey });
  }
  const fixed = [
    ...(name && name.clean !== oldName ? [`${nameField} "${oldName}" → "${name.clean}"`] : []),
    ...Object.keys(changes).filter((field) => field !== nameField && changes[field] !== undefined),
  ];
  return `fixed ${kind} "${oldName}": ${fixed.join(', ') || 'nothing changed'}`;
}

/** Songs and albums show their artist's and album's names as text too: they follow a rename. */
async function renameReferences(edit: EditContext, kind: StarKind, id: string, oldName: string, newName: string): Promise<void> {
  if (kind === 'album') await edit.recorder.update('tracks', sql`o.album_id = ${id}`, sql`album = ${newName}, updated_at = now()`);
  if (kind !== 'artist') return;
  const credit = renamedCredit(oldName, newName);
  await edit.recorder.update('tracks', sql`o.artist_id = ${id}`, sql`artist = ${credit}, updated_at = now()`);
  await edit.recorder.update('albums', sql`o.artist_id = ${id}`, sql`artist = ${credit}, updated_at = now()`);
}
