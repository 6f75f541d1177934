import { MAX_QUEUE_SONGS } from '../../../../core/library/limits.ts';
import { getQueue, saveQueue } from '../../../../core/library/queue.ts';
import { defineSubsonicMethod } from '../../method.ts';

/** Subsonic's getPlayQueue and savePlayQueue over the one queue the XRPC player operations share. */
export const queueMethods = [
  defineSubsonicMethod('getPlayQueue', async ({ ctx, viewer }) => {
    // The whole queue, which is limited in size (one saved before the limit answers its first
    // MAX_QUEUE_SONGS). currentIndex, songCount and offset are the XRPC side's own additions:
    // Subsonic names the current song by id only.
    const { currentIndex: _, songCount: __, offset: ___, ...playQueue } = await getQueue(ctx.db, viewer.userId, { offset: 0, limit: MAX_QUEUE_SONGS });
    return { playQueue };
  }),
  // No ids clears the queue.
  defineSubsonicMethod('savePlayQueue', async ({ ctx, viewer, params, client }) => {
    await saveQueue(ctx.db, viewer.userId, { songIds: params.all('id'), current: params.get('current'), positionMs: params.integer('position') }, client);
    return {};
  }),
];
