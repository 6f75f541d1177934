import { invalidParameter } from './errors.ts';

/**
 * How big a user's play queue and playlists may grow. Sign-up is open, so without these one visitor
 * could queue a huge folder again and again and make every read of their queue (which Subsonic
 * answers whole) slow the server for everyone.
 */

/**
 * Songs in the play queue: about two weeks of music, more than players keep, and what one Subsonic
 * savePlayQueue form can carry under the /rest body limit (5,000 ids of 40 bytes is 200 KB).
 */
export const MAX_QUEUE_SONGS = 5_000;
/** Songs in one playlist: the same, so a full queue can be saved as a playlist and a playlist queued whole. */
export const MAX_PLAYLIST_SONGS = 5_000;
/** Playlists one user may own. */
export const MAX_PLAYLISTS = 1_000;

/** Songs per page of app.svc.player.getPlaybackQueue: a page stays well under a megabyte. */
export const QUEUE_PAGE_DEFAULT = 500;
export const QUEUE_PAGE_MAX = 1_000;

/** Refuses a change that would leave `what` holding `count` items, over `limit`. */
export function checkLimit(what: string, limit: number, count: number): void {
  if (count > limit) throw invalidParameter(`${what} is limited to ${limit}; this change would make it ${count}`);
}
