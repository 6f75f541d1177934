import { notAuthorized } from '../../../core/library/errors.ts';
import { defineSubsonicMethod, type SubsonicPayload } from '../method.ts';
import { visibleFolders } from '../folders.ts';

export const ping = defineSubsonicMethod('ping', async () => ({}));

export const getLicense = defineSubsonicMethod('getLicense', async () => ({ license: { valid: true } }));

/**
 * The OpenSubsonic extensions this server implements: `apiKey` sign-in (auth.ts), parameters in a
 * form body (router.ts), getLyricsBySongId (media.ts), the play queue by index (state/queue.ts), and
 * reportPlayback (state/plays.ts).
 * Not transcodeOffset: nothing is transcoded, so there is no offset to start a transcode at.
 */
export const SUPPORTED_EXTENSIONS = [
  { name: 'apiKeyAuthentication', versions: [1] },
  { name: 'formPost', versions: [1] },
  { name: 'indexBasedQueue', versions: [1] },
  { name: 'playbackReport', versions: [1] },
  { name: 'songLyrics', versions: [1] },
];

/**
 * Answers that need no credentials: OpenSubsonic has clients discover the extensions (e.g.
 * whether apiKey sign-in exists) before they sign in. With credentials they are answered alike.
 */
export const PUBLIC_ANSWERS: ReadonlyMap<string, SubsonicPayload> = new Map([['getOpenSubsonicExtensions', { openSubsonicExtensions: SUPPORTED_EXTENSIONS }]]);

/** Only the caller's own account: there are no administrators over the Subsonic API. */
export const getUser = defineSubsonicMethod('getUser', async ({ ctx, viewer, params }) => {
  const username = params.required('username');
  if (username.toLowerCase() !== viewer.handle) throw notAuthorized('only your own user can be read');
  const folders = await visibleFolders(ctx.db, viewer.userId);
  return {
    user: {
      username: viewer.handle,
      scrobblingEnabled: true,
      adminRole: false,
      settingsRole: false,
      downloadRole: true,
      uploadRole: false,
      playlistRole: true,
      coverArtRole: true,
      commentRole: false,
      podcastRole: false,
      streamRole: true,
      jukeboxRole: false,
      shareRole: false,
      videoConversionRole: false,
      folder: folders.map((folder) => folder.id),
    },
  };
});
