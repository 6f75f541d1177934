/**
 * The URLs the player's <audio> elements load. An element cannot send the sign-in token, and the
 * token never goes into a URL, so each song is streamed through a short-lived URL the server signs
 * for this user (app.svc.library.getStreamUrl). A URL is reused while it has a while to run, so
 * loading a song ahead, then playing it (or playing it again), asks the server for it once.
 */
import { query } from '../api/xrpc.ts';
import type { Song } from '../pages/library/logic.ts';

/** A URL with less than this left is asked for again: a long song or a seek must not outlive it. */
const MARGIN_MS = 30 * 60 * 1000;

const signed = new Map<string, { url: string; expires: number }>();

export async function streamUrl(songId: string): Promise<string> {
  const kept = signed.get(songId);
  if (kept && kept.expires - Date.now() > MARGIN_MS) return kept.url;
  const answer = await query('app.svc.library.getStreamUrl', { id: songId });
  signed.set(songId, { url: answer.url, expires: Date.parse(answer.expiresAt) });
  return answer.url;
}

/** Signed URLs belong to the user who asked for them: forgotten when the player starts over for another. */
export const forgetStreamUrls = () => signed.clear();

/**
 * The song's cover at the public library cover route (server-wide music only; a user's own
 * file-host songs show none rather than putting a credential into an image URL).
 */
export const coverUrl = (song: Song) => (song.coverArt ? `/library/covers/${encodeURIComponent(song.coverArt)}` : null);
