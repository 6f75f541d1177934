import { getQueue, saveQueue } from '../../../library/queue.ts';
import { defineSubsonicMethod } from '../../method.ts';

/** Subsonic's getPlayQueue and savePlayQueue over the one queue the XRPC player operations share. */
export const queueMethods = [
  defineSubsonicMethod('getPlayQueue', async ({ ctx, viewer }) => {
    // currentIndex is the XRPC side's own addition; Subsonic names the current song by id only.
    const { currentIndex: _, ...playQueue } = await getQueue(ctx.db, viewer.userId);
    return { playQueue };
  }),
  // No ids clears the queue.
  defineSubsonicMethod('savePlayQueue', async ({ ctx, viewer, params, client }) => {
    await saveQueue(ctx.db, viewer.userId, { songIds: params.all('id'), current: params.get('current'), positionMs: params.integer('position') }, client);
    return {};
  }),
];
