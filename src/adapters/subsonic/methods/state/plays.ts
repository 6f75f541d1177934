import { invalidParameter, libraryNotFound, missingParameter } from '../../../../core/library/errors.ts';
import { nowPlayingEntries, recordPlays, setNowPlaying } from '../../../../core/library/now-playing.ts';
import { PLAYBACK_STATES, reportPlayback, type PlaybackState } from '../../../../core/library/playback.ts';
import { MAX_DURATION_MS } from '../../../../core/catalog/field-rules.ts';
import { defineSubsonicMethod, type SubsonicParams } from '../../method.ts';
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

/** A non-negative number of milliseconds, as positionMs is sent (some clients send a fraction). */
function positionMs(params: SubsonicParams): number {
  const text = params.required('positionMs');
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value > MAX_DURATION_MS) throw invalidParameter(`positionMs must be milliseconds from the start, not ${text}`);
  return value;
}

function playbackRate(params: SubsonicParams): number {
  const text = params.get('playbackRate');
  if (text === undefined) return 1;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw invalidParameter(`playbackRate must be a positive number, not ${text}`);
  return value;
}

/**
 * Subsonic's scrobble and getNowPlaying, and OpenSubsonic's reportPlayback (the playbackReport
 * extension: core/library/playback.ts). scrobble takes `id` repeatable with a matching `time`
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
  defineSubsonicMethod('reportPlayback', async ({ ctx, viewer, params, client }) => {
    const songId = params.required('mediaId');
    const mediaType = params.required('mediaType');
    const state = params.required('state');
    const position = positionMs(params);
    if (mediaType === 'podcast') throw libraryNotFound('this server has no podcasts');
    if (mediaType !== 'song') throw invalidParameter(`mediaType must be song or podcast, not ${mediaType}`);
    if (!(PLAYBACK_STATES as readonly string[]).includes(state)) throw invalidParameter(`state must be one of ${PLAYBACK_STATES.join(', ')}, not ${state}`);
    const report = {
      songId,
      positionMs: position,
      state: state as PlaybackState,
      rate: playbackRate(params),
      ignoreScrobble: params.boolean('ignoreScrobble') ?? false,
    };
    await reportPlayback(ctx, viewer.userId, report, client);
    return {};
  }),
  defineSubsonicMethod('getNowPlaying', async ({ ctx, viewer }) => ({ nowPlaying: { entry: await nowPlayingEntries(ctx.db, viewer.userId) } })),
];
