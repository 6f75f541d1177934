import { Type } from '@sinclair/typebox';
import { invalidRequest } from '../api/errors.ts';
import { defineProcedure, defineQuery } from '../api/operation.ts';
import type { AppContext } from '../context.ts';
import { asXrpc, XRPC_CLIENT } from '../library/operations-call.ts';
import { addDirectoryToQueue as addDirectory } from '../library/queue-directory.ts';
import { addToQueue, clearQueue as clear, getQueue, removeFromQueue as remove } from '../library/queue.ts';
import { listOf, OneOrMore, PlayQueue } from '../library/schemas.ts';

/**
 * The spec's player operations (4.5) over the user's one play queue, the same queue Subsonic's
 * getPlayQueue and savePlayQueue read and write. Each change answers the queue after it.
 */

const QueueOutput = Type.Object({ queue: PlayQueue });
const queueOf = async (ctx: AppContext, userId: string) => ({ queue: await getQueue(ctx.db, userId) });
const Position = (description: string) => Type.Integer({ minimum: 0, maximum: 1_000_000, description });

const DirectoryFields = {
  directory: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'a directory id, or a path relative to a library source root (the leading / optional); required' })),
  position: Type.Optional(Position('where in the queue the songs go; the end when absent')),
  shuffle: Type.Optional(Type.Boolean({ description: "shuffle the directory's songs (default false: path order)" })),
  recurse: Type.Optional(Type.Boolean({ description: 'include subdirectories (default true)' })),
  playerId: Type.Optional(Type.String({ maxLength: 200, description: 'the player, recorded as who changed the queue' })),
};

const addDirectoryToQueue = defineProcedure({
  nsid: 'app.svc.player.addDirectoryToQueue',
  summary:
    "Add a library directory's audio files to the caller's queue, in path order or shuffled. The fields are accepted as query parameters " +
    '(as the spec declares them) and as a JSON body; a field given in both takes the body\'s value. Answers the song ids added, where they went, and the queue',
  auth: 'required',
  params: Type.Object(DirectoryFields),
  input: Type.Object(DirectoryFields),
  output: Type.Object({ added: Type.Array(Type.String()), position: Type.Integer({ minimum: 0 }), queue: PlayQueue }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, input, viewer, ctx }) {
    const request = { ...params, ...input };
    if (request.directory === undefined) throw invalidRequest('directory is required (a query parameter or a body field)');
    const directory = request.directory;
    const { songIds, position } = await asXrpc(() => addDirectory(ctx.db, viewer.userId, { ...request, directory }, request.playerId ?? XRPC_CLIENT));
    return { added: songIds, position, ...(await queueOf(ctx, viewer.userId)) };
  },
});

const getPlaybackQueue = defineQuery({
  nsid: 'app.svc.player.getPlaybackQueue',
  summary: "The caller's play queue: its songs, the current one and the position in it (shared with Subsonic's getPlayQueue)",
  auth: 'required',
  output: QueueOutput,
  handler: ({ viewer, ctx }) => queueOf(ctx, viewer.userId),
});

const addItemsToQueue = defineProcedure({
  nsid: 'app.svc.player.addItemsToQueue',
  summary: 'Insert songs into the queue at a position (the end when absent); answers the queue',
  auth: 'required',
  input: Type.Object({
    ids: Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 10_000 })], { description: 'song ids, in order' }),
    position: Type.Optional(Position('queue index to insert at')),
  }),
  output: QueueOutput,
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ input, viewer, ctx }) {
    await asXrpc(() => addToQueue(ctx.db, viewer.userId, listOf(input.ids), input.position, XRPC_CLIENT));
    return queueOf(ctx, viewer.userId);
  },
});

const removeFromQueue = defineProcedure({
  nsid: 'app.svc.player.removeFromQueue',
  summary: 'Remove the items at the given queue indexes (as they were before the removal); removing the current song leaves none current',
  auth: 'required',
  input: Type.Object({ positions: OneOrMore(Position('queue index'), 'queue indexes') }),
  output: QueueOutput,
  errors: ['InvalidRequest'],
  async handler({ input, viewer, ctx }) {
    const positions = listOf(input.positions);
    if (positions.length === 0) throw invalidRequest('positions is required');
    await asXrpc(() => remove(ctx.db, viewer.userId, positions, XRPC_CLIENT));
    return queueOf(ctx, viewer.userId);
  },
});

const clearQueue = defineProcedure({
  nsid: 'app.svc.player.clearQueue',
  summary: "Empty the caller's queue; answers it",
  auth: 'required',
  output: QueueOutput,
  async handler({ viewer, ctx }) {
    await clear(ctx.db, viewer.userId, XRPC_CLIENT);
    return queueOf(ctx, viewer.userId);
  },
});

export const playerOperations = [addDirectoryToQueue, getPlaybackQueue, addItemsToQueue, removeFromQueue, clearQueue];
