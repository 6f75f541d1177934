import { invalidParameter, missingParameter } from '../../../../core/library/errors.ts';
import { nowPlayingEntries, recordPlays, setNowPlaying } from '../../../../core/library/now-playing.ts';
import { defineSubsonicMethod } from '../../method.ts';
import { integers } from './integers.ts';

/** Below this a time cannot be milliseconds of a play (it is 1973-03-03); as seconds it would be the year 5138. */
const SECONDS_BELOW = 100_000_000_000;

/**
 * When a play was: Subsonic sends milliseconds since the epoch, a few scrobbling clients Unix
 * seconds, told apart by size. A malformed time is now, as Navidrome has it.
 */
function playTime(time: number | undefined): Date | undefined {
  if (time === undefined) return undefined;
  return new Date(time < SECONDS_BELOW ? time * 1000 : time);
}

/**
 * Subsonic's scrobble and getNowPlaying. scrobble takes `id` repeatable with a matching `time`
 * list (now when absent); submission=true (the default) stores the plays, false sets the first
 * song as now playing.
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
        ids.map((songId, i) => ({ songId, at: playTime(times[i]) })),
        client,
      );
    }
    return {};
  }),
  defineSubsonicMethod('getNowPlaying', async ({ ctx, viewer }) => ({ nowPlaying: { entry: await nowPlayingEntries(ctx.db, viewer.userId) } })),
];
