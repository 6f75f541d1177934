import { Type, type TSchema } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../../../adapters/http/operation.ts';
import { DateTime, Empty, isoDateTime, Uuid } from '../../../toolkit/schemas.ts';
import type { CatalogEditKind, StarKind } from '../../../toolkit/db/index.ts';
import { currentIds } from '../aliases.ts';
import { listEdits, recordEdit, requireAdmin, undoEdit } from './log.ts';
import { mergeAlbums, mergeArtists, mergeSongs } from './merge.ts';
import { NAME_FIELD, updateEntry, type FieldChanges } from './update.ts';

/**
 * The catalog's admin operations: merges and fixes live in the namespace of what they change
 * (app.svc.artist.mergeArtists, app.svc.song.updateSong, as app.svc.song.getSong reads), the edit
 * log in app.svc.catalog. Each edit is one transaction, logged with who made it, and undoable.
 */

const ADMIN_ERRORS = ['InvalidRequest', 'Forbidden', 'NotFound'] as const;
const EditOutput = Type.Object({ editId: Type.Integer({ description: 'the edit log entry; pass it to app.svc.catalog.undoEdit' }) });

const MERGES = { artist: ['mergeArtists', mergeArtists], album: ['mergeAlbums', mergeAlbums], song: ['mergeSongs', mergeSongs] } as const;

function mergeOperation(kind: StarKind) {
  const [name, merge] = MERGES[kind];
  return defineProcedure({
    nsid: `app.svc.${kind}.${name}`,
    summary: `Merge one ${kind} into another (admin only): everything that points at \`from\` moves to \`into\`, and \`from\`'s id keeps resolving to it`,
    auth: 'account',
    input: Type.Object({ from: Uuid({ description: `the ${kind} merged away` }), into: Uuid({ description: `the ${kind} that stays` }) }),
    output: EditOutput,
    errors: ADMIN_ERRORS,
    async handler({ input, viewer, ctx }) {
      await requireAdmin(ctx.db, viewer.userId);
      const [from, into] = await currentIds(ctx.db, kind, [input.from.toLowerCase(), input.into.toLowerCase()]);
      const editId = await recordEdit(ctx.db, viewer.userId, name, (edit) => merge(edit, from!, into!));
      return { editId };
    },
  });
}

const Nullable = <T extends TSchema>(schema: T, description: string) => Type.Optional(Type.Union([schema, Type.Null()], { description: `${description}; null clears it` }));
const Mbid = (description: string) => Nullable(Type.String(), description);
const Text = (description: string) => Nullable(Type.String(), description);
const Int = (description: string) => Nullable(Type.Integer(), description);
const Name = (description: string) => Type.Optional(Type.String({ minLength: 1, description }));

const UPDATE_FIELDS = {
  artist: { name: Name('the corrected name'), mbid: Mbid('MusicBrainz artist id'), picture: Text('picture URL'), genres: Type.Optional(Type.Array(Type.String(), { maxItems: 50 })) },
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

const UPDATES: Record<StarKind, CatalogEditKind> = { artist: 'updateArtist', album: 'updateAlbum', song: 'updateSong' };

function updateOperation(kind: StarKind) {
  return defineProcedure({
    nsid: `app.svc.${kind}.${UPDATES[kind]}`,
    summary: `Fix a ${kind}'s ${NAME_FIELD[kind]} or other fields (admin only); fields not given stay as they are`,
    auth: 'account',
    input: Type.Object({ id: Uuid({ description: `the ${kind}` }), ...UPDATE_FIELDS[kind] }, { additionalProperties: false }),
    output: EditOutput,
    errors: [...ADMIN_ERRORS, 'EntryExists'],
    async handler({ input, viewer, ctx }) {
      await requireAdmin(ctx.db, viewer.userId);
      const { id, ...changes } = input as { id: string } & FieldChanges;
      const [current] = await currentIds(ctx.db, kind, [id.toLowerCase()]);
      const editId = await recordEdit(ctx.db, viewer.userId, UPDATES[kind], (edit) => updateEntry(edit, kind, current!, changes));
      return { editId };
    },
  });
}

const Edit = Type.Object({
  id: Type.Integer(),
  kind: Type.String({ description: 'mergeArtists, mergeAlbums, mergeSongs, updateArtist, updateAlbum or updateSong' }),
  handle: Type.Optional(Type.String({ description: 'the admin who made it; absent once their account is gone' })),
  createdAt: DateTime(),
  summary: Type.String(),
  undone: Type.Boolean(),
  undoneAt: Type.Optional(DateTime()),
});

export const getEdits = defineQuery({
  nsid: 'app.svc.catalog.getEdits',
  summary: 'The log of catalog edits (admin only), newest first',
  auth: 'account',
  params: Type.Object({
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'the `cursor` of the previous page' })),
  }),
  output: Type.Object({ edits: Type.Array(Edit), cursor: Type.Optional(Type.String({ description: 'pass as `cursor` for the next page; absent on the last page' })) }),
  errors: ['InvalidRequest', 'Forbidden'],
  async handler({ params, viewer, ctx }) {
    await requireAdmin(ctx.db, viewer.userId);
    const edits = await listEdits(ctx.db, params.limit, params.cursor === undefined ? undefined : Number(params.cursor));
    const last = edits.at(-1);
    return {
      edits: edits.map((edit) => ({
        id: edit.id,
        kind: edit.kind,
        ...(edit.handle === null ? {} : { handle: edit.handle }),
        createdAt: isoDateTime(edit.createdAt),
        summary: edit.summary,
        undone: edit.undoneAt !== null,
        ...(edit.undoneAt ? { undoneAt: isoDateTime(edit.undoneAt) } : {}),
      })),
      ...(last && edits.length === params.limit ? { cursor: String(last.id) } : {}),
    };
  },
});

export const undoEditOperation = defineProcedure({
  nsid: 'app.svc.catalog.undoEdit',
  summary: 'Undo a catalog edit (admin only), restoring every row it changed; refused (409) while a later edit of the same entries is in force',
  auth: 'account',
  input: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
  output: Empty,
  errors: [...ADMIN_ERRORS, 'UndoConflict'],
  async handler({ input, viewer, ctx }) {
    await requireAdmin(ctx.db, viewer.userId);
    await undoEdit(ctx.db, viewer.userId, input.id);
    return {};
  },
});

export const catalogEditOperations = [
  ...(['artist', 'album', 'song'] as const).flatMap((kind) => [mergeOperation(kind), updateOperation(kind)]),
  getEdits,
  undoEditOperation,
];
