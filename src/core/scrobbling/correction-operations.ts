import { Type } from '@sinclair/typebox';
import { defineProcedure } from '../../adapters/http/operation.ts';
import { notFound } from '../../toolkit/errors.ts';
import { DateTime, Uuid } from '../../toolkit/schemas.ts';
import { correctOwnScrobble, deleteOwnScrobble } from './corrections.ts';
import { ScrobbleRef, scrobbleIdFrom } from './feed/operations.ts';
import { NameText, Scrobble } from './schemas.ts';
import { selectScrobbleViews } from './view.ts';

export const deleteScrobble = defineProcedure({
  nsid: 'app.svc.scrobble.deleteScrobble',
  summary: "Delete one of the caller's plays, by uri or id; counts, charts, feeds and Wrapped drop it at once",
  auth: 'required',
  input: Type.Object(ScrobbleRef),
  output: Type.Object({ success: Type.Literal(true) }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ input, viewer, ctx }) {
    const id = scrobbleIdFrom(input);
    // Another user's play is answered exactly like a missing one, and stays.
    if (!(await deleteOwnScrobble(ctx.db, viewer.userId, id))) throw notFound(`you have no scrobble ${id}`);
    return { success: true as const };
  },
});

export const updateScrobble = defineProcedure({
  nsid: 'app.svc.scrobble.updateScrobble',
  summary: "Correct one of the caller's plays: its time, or its song (by id, or by corrected names through the matcher)",
  auth: 'required',
  input: Type.Object({
    ...ScrobbleRef,
    listenedAt: Type.Optional(DateTime({ description: 'when the play happened; the same limits as a new listen' })),
    trackId: Type.Optional(Uuid({ description: 'an existing catalog song to re-point the play to' })),
    artist: Type.Optional(NameText('corrected artist; the rest of the names are kept from the current song')),
    title: Type.Optional(NameText('corrected title')),
    album: Type.Optional(NameText('corrected album')),
  }),
  output: Type.Object({ scrobble: Scrobble }),
  errors: ['InvalidRequest', 'NotFound', 'DuplicateScrobble'],
  async handler({ input, viewer, ctx }) {
    const id = scrobbleIdFrom(input);
    const listenedAt = input.listenedAt === undefined ? undefined : new Date(input.listenedAt);
    await correctOwnScrobble(ctx, viewer.userId, id, { ...input, listenedAt });
    const [updated] = await selectScrobbleViews(ctx.db, viewer.userId, (query) => query.where('s.id', '=', id));
    // Deleted by another request in between.
    if (!updated) throw notFound(`you have no scrobble ${id}`);
    return { scrobble: updated.scrobble };
  },
});

export const correctionOperations = [deleteScrobble, updateScrobble];
