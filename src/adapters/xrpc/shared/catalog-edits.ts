/**
 * The catalog's admin edits: merges and fixes live in the namespace of what they change
 * (app.svc.artist.mergeArtists, app.svc.song.updateSong, as app.svc.song.getSong reads), the edit
 * log in app.svc.catalog. One declaration per kind, each group naming its own nsids.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { defineProcedure } from '../../http/operation.ts';
import { Uuid } from '../../../toolkit/schemas.ts';
import type { StarKind } from '../../../toolkit/db/index.ts';
import { mergeEntries, updateEntryFields } from '../../../core/catalog/edits/admin-edits.ts';
import { NAME_FIELD, type FieldChanges } from '../../../core/catalog/edits/update.ts';

export const ADMIN_ERRORS = ['InvalidRequest', 'Forbidden', 'NotFound'] as const;
const EditOutput = Type.Object({ editId: Type.Integer({ description: 'the edit log entry; pass it to app.svc.catalog.undoEdit' }) });

export function mergeOperation<N extends string>(nsid: N, kind: StarKind) {
  return defineProcedure({
    nsid,
    summary: `Merge one ${kind} into another (admin only): everything that points at \`from\` moves to \`into\`, and \`from\`'s id keeps resolving to it`,
    auth: 'account',
    input: Type.Object({ from: Uuid({ description: `the ${kind} merged away` }), into: Uuid({ description: `the ${kind} that stays` }) }),
    output: EditOutput,
    errors: ADMIN_ERRORS,
    async handler({ input, viewer, ctx }) {
      return { editId: await mergeEntries(ctx.db, viewer.userId, kind, input.from, input.into) };
    },
  });
}

const Nullable = <T extends TSchema>(schema: T, description: string) =>
  Type.Optional(Type.Union([schema, Type.Null()], { description: `${description}; null clears it` }));
const Mbid = (description: string) => Nullable(Type.String(), description);
const Text = (description: string) => Nullable(Type.String(), description);
const Int = (description: string) => Nullable(Type.Integer(), description);
const Name = (description: string) => Type.Optional(Type.String({ minLength: 1, description }));

const UPDATE_FIELDS = {
  artist: {
    name: Name('the corrected name'),
    mbid: Mbid('MusicBrainz artist id'),
    picture: Text('picture URL'),
    genres: Type.Optional(Type.Array(Type.String(), { maxItems: 50 })),
  },
  album: {
    title: Name('the corrected title'),
    mbid: Mbid('MusicBrainz release id'),
    year: Int('release year'),
    releaseDate: Text('release date as the label gives it'),
    genre: Text('genre'),
    label: Text('record label'),
    albumArt: Text('cover picture URL'),
  },
  song: {
    title: Name('the corrected title'),
    mbid: Mbid('MusicBrainz recording id'),
    isrc: Text('ISRC'),
    duration: Int('milliseconds'),
    trackNumber: Int('track number'),
    discNumber: Int('disc number'),
    genre: Text('genre'),
    composer: Text('composer'),
    label: Text('record label'),
    albumArt: Text('cover picture URL'),
    bpm: Int('beats per minute'),
    key: Text('musical key'),
    lyrics: Text('plain-text lyrics'),
  },
} as const;

export function updateOperation<N extends string>(nsid: N, kind: StarKind) {
  return defineProcedure({
    nsid,
    summary: `Fix a ${kind}'s ${NAME_FIELD[kind]} or other fields (admin only); fields not given stay as they are`,
    auth: 'account',
    input: Type.Object({ id: Uuid({ description: `the ${kind}` }), ...UPDATE_FIELDS[kind] }, { additionalProperties: false }),
    output: EditOutput,
    errors: [...ADMIN_ERRORS, 'EntryExists'],
    async handler({ input, viewer, ctx }) {
      const { id, ...changes } = input as { id: string } & FieldChanges;
      return { editId: await updateEntryFields(ctx.db, viewer.userId, kind, id, changes) };
    },
  });
}
