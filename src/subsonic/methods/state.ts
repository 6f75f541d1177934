import type { SubsonicMethod } from '../method.ts';

/** The Subsonic methods over a user's own library state: stars, playlists, the play queue, scrobbles and now playing. */
export const libraryStateMethods: readonly SubsonicMethod[] = [];
