/** The `app.svc.catalog` group: the log of the catalog's admin edits, and undoing one. */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { DateTime, Empty, isoDateTime } from '../../toolkit/schemas.ts';
import { editLog, undoCatalogEdit } from '../../core/catalog/edits/admin-edits.ts';
import { ADMIN_ERRORS } from './shared/catalog-edits.ts';

const Edit = Type.Object({
  id: Type.Integer(),
  kind: Type.String({ description: 'mergeArtists, mergeAlbums, mergeSongs, updateArtist, updateAlbum or updateSong' }),
  handle: Type.Optional(Type.String({ description: 'the admin who made it; absent once their account is gone' })),
  createdAt: DateTime(),
  summary: Type.String(),
  undone: Type.Boolean(),
  undoneAt: Type.Optional(DateTime()),
});

const getEdits = defineQuery({
  nsid: 'app.svc.catalog.getEdits',
  summary: 'The log of catalog edits (admin only), newest first',
  auth: 'account',
  params: Type.Object({
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'the `cursor` of the previous page' })),
  }),
  output: Type.Object({
    edits: Type.Array(Edit),
    cursor: Type.Optional(Type.String({ description: 'pass as `cursor` for the next page; absent on the last page' })),
  }),
  errors: ['InvalidRequest', 'Forbidden'],
  async handler({ params, viewer, ctx }) {
    const edits = await editLog(ctx.db, viewer.userId, params.limit, params.cursor === undefined ? undefined : Number(params.cursor));
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

const undoEdit = defineProcedure({
  nsid: 'app.svc.catalog.undoEdit',
  summary: 'Undo a catalog edit (admin only), restoring every row it changed; refused (409) while a later edit of the same entries is in force',
  auth: 'account',
  input: Type.Object({ id: Type.Integer({ minimum: 1 }) }),
  output: Empty,
  errors: [...ADMIN_ERRORS, 'UndoConflict'],
  async handler({ input, viewer, ctx }) {
    await undoCatalogEdit(ctx.db, viewer.userId, input.id);
    return {};
  },
});

export const catalogOperations = [getEdits, undoEdit];
