import { LibraryError } from '../../../../core/library/errors.ts';
import { MAX_QUEUE_SONGS } from '../../../../core/library/limits.ts';
import { getQueue, saveQueue } from '../../../../core/library/queue.ts';
import { defineSubsonicMethod } from '../../method.ts';

const wholeQueue = { offset: 0, limit: MAX_QUEUE_SONGS };

/**
 * Subsonic's getPlayQueue and savePlayQueue, and OpenSubsonic's indexBasedQueue pair
 * (getPlayQueueByIndex, savePlayQueueByIndex), over the one queue the XRPC player operations share.
 * Each answers the whole queue, which is limited in size (one saved before the limit answers its
 * first MAX_QUEUE_SONGS).
 */
export const queueMethods = [
  defineSubsonicMethod('getPlayQueue', async ({ ctx, viewer }) => {
    // currentIndex, songCount and offset are the XRPC side's own additions: Subsonic names the current song by id only.
    const { currentIndex: _, songCount: __, offset: ___, ...playQueue } = await getQueue(ctx.db, viewer.userId, wholeQueue);
    return { playQueue };
  }),
  // No ids clears the queue.
  defineSubsonicMethod('savePlayQueue', async ({ ctx, viewer, params, client }) => {
    await saveQueue(ctx.db, viewer.userId, { songIds: params.all('id'), current: params.get('current'), positionMs: params.integer('position') }, client);
    return {};
  }),
  // The current song by its 0-based index, so a song queued twice is told apart.
  defineSubsonicMethod('getPlayQueueByIndex', async ({ ctx, viewer }) => {
    const { current: _, songCount: __, offset: ___, ...playQueueByIndex } = await getQueue(ctx.db, viewer.userId, wholeQueue);
    return { playQueueByIndex };
  }),
  defineSubsonicMethod('savePlayQueueByIndex', async ({ ctx, viewer, params, client }) => {
    const songIds = params.all('id');
    const currentIndex = params.integer('currentIndex');
    // OpenSubsonic: currentIndex is required whenever songs are given, and one outside the queue is error 10 too.
    if (currentIndex === undefined ? songIds.length > 0 : currentIndex < 0 || currentIndex >= songIds.length) {
      throw new LibraryError('MissingParameter', `currentIndex must be an index of the ${songIds.length} queued songs`);
    }
    await saveQueue(ctx.db, viewer.userId, { songIds, currentIndex, positionMs: params.integer('position') }, client);
    return {};
  }),
];
