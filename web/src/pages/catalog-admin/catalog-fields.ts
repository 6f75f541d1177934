/**
 * The fields an admin fixes on an artist, album or song (app.svc.<kind>.update<Kind>), as form
 * text: what the form starts with, and the changes a draft makes, only those, or what to fix
 * first in words. A field emptied is cleared (null); the name cannot be.
 */
export type EntryKind = 'artist' | 'album' | 'song';
type FieldType = 'text' | 'long' | 'integer' | 'duration' | 'list';

export interface FieldSpec {
  name: string;
  label: string;
  type: FieldType;
  required?: boolean;
}

const text = (name: string, label: string): FieldSpec => ({ name, label, type: 'text' });
const integer = (name: string, label: string): FieldSpec => ({ name, label, type: 'integer' });

export const FIELDS: Record<EntryKind, FieldSpec[]> = {
  artist: [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'genres', label: 'Genres (separated by commas)', type: 'list' },
    text('mbid', 'MusicBrainz artist id'),
    text('picture', 'Picture URL'),
  ],
  album: [
    { name: 'title', label: 'Title', type: 'text', required: true },
    integer('year', 'Year'),
    text('releaseDate', 'Release date'),
    text('genre', 'Genre'),
    text('label', 'Label'),
    text('mbid', 'MusicBrainz release id'),
    text('albumArt', 'Cover URL'),
  ],
  song: [
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'duration', label: 'Duration (m:ss)', type: 'duration' },
    integer('trackNumber', 'Track number'),
    integer('discNumber', 'Disc number'),
    text('genre', 'Genre'),
    text('composer', 'Composer'),
    text('label', 'Label'),
    integer('bpm', 'BPM'),
    text('key', 'Key'),
    text('isrc', 'ISRC'),
    text('mbid', 'MusicBrainz recording id'),
    text('albumArt', 'Cover URL'),
    { name: 'lyrics', label: 'Lyrics', type: 'long' },
  ],
};

type Value = string | number | string[] | null;
export type Entry = Record<string, unknown>;
export type Draft = Record<string, string>;

/** Milliseconds as m:ss (seconds rounded down). */
export function formatDurationInput(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function asText(spec: FieldSpec, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (spec.type === 'duration') return formatDurationInput(value as number);
  if (spec.type === 'list') return (value as string[]).join(', ');
  return String(value);
}

export const draftOf = (kind: EntryKind, entry: Entry): Draft => Object.fromEntries(FIELDS[kind].map((spec) => [spec.name, asText(spec, entry[spec.name])]));

/** The typed value of one field's text, or what is wrong with it. */
function parse(spec: FieldSpec, raw: string): { value: Value } | { problem: string } {
  const typed = spec.type === 'long' ? raw : raw.trim();
  if (!typed.trim()) return spec.required ? { problem: `${spec.label} cannot be empty.` } : { value: spec.type === 'list' ? [] : null };
  if (spec.type === 'integer') {
    return /^\d{1,9}$/.test(typed) ? { value: Number(typed) } : { problem: `${spec.label} must be a whole number, such as 3.` };
  }
  if (spec.type === 'duration') {
    const found = /^(?:(\d{1,4}):)?(\d{1,5})$/.exec(typed);
    if (!found || (found[1] !== undefined && Number(found[2]) > 59)) return { problem: `${spec.label}: write minutes and seconds, such as 3:45.` };
    return { value: (Number(found[1] ?? 0) * 60 + Number(found[2])) * 1000 };
  }
  if (spec.type === 'list')
    return {
      value: [
        ...new Set(
          typed
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean),
        ),
      ],
    };
  return { value: typed };
}

/** The fields `draft` changes on `entry`, or the first problem; an unchanged draft is a problem too. */
export function fieldChanges(kind: EntryKind, entry: Entry, draft: Draft): { changes: Record<string, Value> } | { problem: string } {
  const changes: Record<string, Value> = {};
  for (const spec of FIELDS[kind]) {
    const raw = draft[spec.name] ?? '';
    if (raw === asText(spec, entry[spec.name])) continue;
    const parsed = parse(spec, raw);
    if ('problem' in parsed) return parsed;
    // Text that reads the same once typed ("a,b" for "a, b") changes nothing: only a real difference is sent.
    if (asText(spec, parsed.value) === asText(spec, entry[spec.name])) continue;
    changes[spec.name] = parsed.value;
  }
  if (Object.keys(changes).length === 0) return { problem: 'Nothing changed: edit a field first.' };
  return { changes };
}
