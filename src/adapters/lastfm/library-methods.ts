import { playedCount, topArtists } from '../../core/catalog/actor-top.ts';
import { deletePlaysAt } from '../../core/scrobbling/corrections.ts';
import { ALL_TIME } from '../../core/stats/rollups/reads.ts';
import { invalidParameters, invalidResource } from './errors.ts';
import { defineMethod } from './method.ts';
import { requiredParam, unixSeconds } from './params.ts';
import { namedUser, paging } from './read-params.ts';
import { element, list } from './response.ts';
import { images, pageLinks, pagingAttributes } from './shapes.ts';

/** Last.fm's largest page of library artists. */
const MAX_LIBRARY_ARTISTS = 2000;

/**
 * library.getArtists: every artist the user played, most played first, with their plays (all time,
 * counted as user.getTopArtists counts them); `tagcount` is 0, Earshot keeping no personal tags.
 */
export const getLibraryArtists = defineMethod({
  name: 'library.getArtists',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const user = await namedUser(call);
    const { db, config } = call.ctx;
    const page = paging(call.params, MAX_LIBRARY_ARTISTS);
    const links = pageLinks(config.publicUrl);
    const [artists, total] = await Promise.all([topArtists(db, user.id, ALL_TIME, page), playedCount(db, user.id, ALL_TIME, 'artist')]);
    const entries = artists.map((artist) =>
      element('artist', [
        element('name', artist.name),
        element('playcount', String(artist.playCount)),
        element('tagcount', '0'),
        element('mbid', artist.mbid ?? ''),
        element('url', links.catalog('artist', artist.id)),
        element('streamable', '0'),
        ...images(artist.picture),
      ]),
    );
    return list('artists', 'artist', entries, { user: user.handle, ...pagingAttributes(page.page, page.limit, total) });
  },
});

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
