import { deletePlaysAt } from '../../core/scrobbling/corrections.ts';
import { invalidParameters, invalidResource } from './errors.ts';
import { defineMethod } from './method.ts';
import { requiredParam, unixSeconds } from './params.ts';

/**
 * library.removeScrobble: removes the session user's play of `artist` - `track`
 * at `timestamp`, named by the names and time the client scrobbled with. An
 * empty `<lfm status="ok">` when it went; error 7 (Invalid resource specified)
 * when there was no such play, as Libre.fm's implementation of this method
 * answers, and which clients that unscrobble treat as "already gone".
 */
export const removeScrobble = defineMethod({
  name: 'library.removeScrobble',
  postOnly: true,
  auth: 'session',
  async handler({ ctx, params, session }) {
    const artist = requiredParam(params, 'artist');
    const title = requiredParam(params, 'track');
    if (!artist.trim() || !title.trim()) throw invalidParameters('artist and track must not be empty');
    const { seconds } = unixSeconds(params, 'timestamp');
    const removed = await deletePlaysAt(ctx.db, session.userId, seconds, { artist, title });
    if (removed === 0) throw invalidResource(`no scrobble of ${artist} - ${title} at ${seconds}`);
    return null;
  },
});
