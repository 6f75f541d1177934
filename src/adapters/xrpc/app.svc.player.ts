import { Type } from '@sinclair/typebox';
import { invalidRequest } from '../../toolkit/errors.ts';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { asXrpc, XRPC_CLIENT } from '../../core/library/operations-call.ts';
import { MAX_QUEUE_SONGS, QUEUE_PAGE_DEFAULT, QUEUE_PAGE_MAX } from '../../core/library/limits.ts';
import { addDirectoryToQueue as addDirectory } from '../../core/library/queue-directory.ts';
import { addToQueue, clearQueue as clear, getQueue, queueSummary, removeFromQueue as remove } from '../../core/library/queue.ts';
import { listOf, OneOrMore, PlayQueuePage, QueueSummary } from '../../core/library/schemas.ts';

/**
 * The `app.svc.player` group, the spec's player operations (4.5) over the user's one play queue,
 * the same queue Subsonic's getPlayQueue and savePlayQueue read and write. A change answers where
 * the queue stands (its size, the current song), not its songs: getPlaybackQueue reads those a
 * page at a time.
 */

const SummaryOutput = Type.Object({ queue: QueueSummary });
const Position = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_QUEUE_SONGS, description });

const DirectoryFields = {
  directory: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 4096,
      description: 'a directory id, or a path relative to a library source root (the leading / optional); required',
    }),
  ),
  position: Type.Optional(Position('where in the queue the songs go; the end when absent')),
  shuffle: Type.Optional(Type.Boolean({ description: "shuffle the directory's songs (default false: path order)" })),
  recurse: Type.Optional(Type.Boolean({ description: 'include subdirectories (default true)' })),
  playerId: Type.Optional(Type.String({ maxLength: 200, description: 'the player, recorded as who changed the queue' })),
};

const addDirectoryToQueue = defineProcedure({
  nsid: 'app.svc.player.addDirectoryToQueue',
  summary:
    "Add a library directory's audio files to the caller's queue, in path order or shuffled. The fields are accepted as query parameters " +
    "(as the spec declares them) and as a JSON body; a field given in both takes the body's value. Answers the song ids added, where they went, " +
    `and where the queue stands. A queue that would pass ${MAX_QUEUE_SONGS} songs is refused whole`,
  auth: 'required',
  params: Type.Object(DirectoryFields),
  input: Type.Object(DirectoryFields),
  output: Type.Object({ added: Type.Array(Type.String()), position: Type.Integer({ minimum: 0 }), queue: QueueSummary }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, input, viewer, ctx }) {
    const request = { ...params, ...input };
    if (request.directory === undefined) throw invalidRequest('directory is required (a query parameter or a body field)');
    const directory = request.directory;
    const { songIds, position } = await asXrpc(() => addDirectory(ctx.db, viewer.userId, { ...request, directory }, request.playerId ?? XRPC_CLIENT));
    return { added: songIds, position, queue: await queueSummary(ctx.db, viewer.userId) };
  },
});

const getPlaybackQueue = defineQuery({
  nsid: 'app.svc.player.getPlaybackQueue',
  summary:
    "The caller's play queue: where it stands (the current song, the position in it) and a page of its songs from `offset` " +
    "(shared with Subsonic's getPlayQueue, which answers every song)",
  auth: 'required',
  params: Type.Object({
    // Not capped at the limit: a queue saved before there was one can still be read to its end.
    offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'the queue index of the first song answered' }),
    limit: Type.Integer({ minimum: 1, maximum: QUEUE_PAGE_MAX, default: QUEUE_PAGE_DEFAULT, description: 'songs per page' }),
  }),
  output: Type.Object({ queue: PlayQueuePage }),
  handler: async ({ params, viewer, ctx }) => ({ queue: await getQueue(ctx.db, viewer.userId, params) }),
});

const addItemsToQueue = defineProcedure({
  nsid: 'app.svc.player.addItemsToQueue',
  summary: `Insert songs into the queue at a position (the end when absent); answers where they went and where the queue stands. A queue that would pass ${MAX_QUEUE_SONGS} songs is refused whole`,
  auth: 'required',
  input: Type.Object({
    ids: Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: MAX_QUEUE_SONGS })], {
      description: 'song ids, in order',
    }),
    position: Type.Optional(Position('queue index to insert at')),
  }),
  output: Type.Object({ position: Type.Integer({ minimum: 0 }), queue: QueueSummary }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ input, viewer, ctx }) {
    const position = await asXrpc(() => addToQueue(ctx.db, viewer.userId, listOf(input.ids), input.position, XRPC_CLIENT));
    return { position, queue: await queueSummary(ctx.db, viewer.userId) };
  },
});

const removeFromQueue = defineProcedure({
  nsid: 'app.svc.player.removeFromQueue',
  summary: 'Remove the items at the given queue indexes (as they were before the removal); removing the current song leaves none current',
  auth: 'required',
  input: Type.Object({ positions: OneOrMore(Position('queue index'), 'queue indexes') }),
  output: SummaryOutput,
  errors: ['InvalidRequest'],
  async handler({ input, viewer, ctx }) {
    const positions = listOf(input.positions);
    if (positions.length === 0) throw invalidRequest('positions is required');
    await asXrpc(() => remove(ctx.db, viewer.userId, positions, XRPC_CLIENT));
    return { queue: await queueSummary(ctx.db, viewer.userId) };
  },
});

const clearQueue = defineProcedure({
  nsid: 'app.svc.player.clearQueue',
  summary: "Empty the caller's queue; answers where it stands",
  auth: 'required',
  output: SummaryOutput,
  async handler({ viewer, ctx }) {
    await clear(ctx.db, viewer.userId, XRPC_CLIENT);
    return { queue: await queueSummary(ctx.db, viewer.userId) };
  },
});

export const playerOperations = [addDirectoryToQueue, getPlaybackQueue, addItemsToQueue, removeFromQueue, clearQueue];
