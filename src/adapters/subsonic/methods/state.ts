import type { SubsonicMethod } from '../method.ts';
import { playMethods } from './state/plays.ts';
import { playlistMethods } from './state/playlists.ts';
import { queueMethods } from './state/queue.ts';
import { starMethods } from './state/stars.ts';

/** The Subsonic methods over a user's own library state: stars, playlists, the play queue, scrobbles and now playing. */
export const libraryStateMethods: readonly SubsonicMethod[] = [...starMethods, ...playMethods, ...playlistMethods, ...queueMethods];
