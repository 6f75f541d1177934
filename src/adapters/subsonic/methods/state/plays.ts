import { invalidParameter, missingParameter } from '../../../../core/library/errors.ts';
import { nowPlayingEntries, recordPlays, setNowPlaying } from '../../../../core/library/now-playing.ts';
import { defineSubsonicMethod } from '../../method.ts';
import { integers } from './integers.ts';

/**
 * Subsonic's scrobble and getNowPlaying. scrobble takes `id` repeatable with a matching `time`
 * list (milliseconds since the epoch; now when absent); submission=true (the default) stores the
 * plays, false sets the first song as now playing.
 */
export const playMethods = [
  defineSubsonicMethod('scrobble', async ({ ctx, viewer, params, client }) => {
    const ids = params.all('id');
    if (ids.length === 0) throw missingParameter('id');
    const times = integers(params, 'time');
    if (times.length > 0 && times.length !== ids.length) throw invalidParameter(`${ids.length} ids need as many times, not ${times.length}`);
    if (params.boolean('submission') === false) {
      await setNowPlaying(ctx, viewer.userId, ids[0]!, client);
    } else {
      await recordPlays(
        ctx,
        viewer.userId,
        ids.map((songId, i) => ({ songId, at: times.length > 0 ? new Date(times[i]!) : undefined })),
        client,
      );
    }
    return {};
  }),
  defineSubsonicMethod('getNowPlaying', async ({ ctx, viewer }) => ({ nowPlaying: { entry: await nowPlayingEntries(ctx.db, viewer.userId) } })),
];
