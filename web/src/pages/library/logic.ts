/** The library's pure logic: when a play counts, how a playlist move is sent, where the player is in the queue, how the queue is read. */
import type { Input, Output } from '../../api/xrpc.ts';
import { playCounts } from '../../../../src/core/scrobbling/listen-rules.ts';
import { advanceClock, startClock, type PlaybackClock } from '../../../../src/core/scrobbling/played-time.ts';

export type Song = Output<'app.svc.library.getPlaylist'>['playlist']['entry'][number];

/**
 * One play of one track: the time actually listened, measured as the server measures a Subsonic
 * player's reports (core/scrobbling/played-time.ts: seeking ahead and pauses do not count), and
 * once, when it reaches the scrobble rule (core/scrobbling/listen-rules.ts).
 */
export class PlayTracker {
  private clock: PlaybackClock | null = null;
  private counted = false;

  /**
   * Feeds a reading of the audio element: its position in seconds, whether it is playing, when, in
   * milliseconds on the page's clock, and its playback rate; true exactly once, on the reading that
   * makes the play count.
   */
  update(positionSeconds: number, playing: boolean, atMs: number, durationSeconds: number | undefined, rate = 1): boolean {
    const reading = { playing, positionMs: positionSeconds * 1000, atMs, rate };
    this.clock = this.clock ? advanceClock(this.clock, reading) : startClock(reading);
    if (this.counted || !playCounts(this.playedMs, knownLength(durationSeconds))) return false;
    this.counted = true;
    return true;
  }

  /** Milliseconds listened so far. */
  get playedMs(): number {
    return Math.round(this.clock?.playedMs ?? 0);
  }
}

/** A track's length in milliseconds, when the element or the catalog knows it. */
const knownLength = (seconds: number | undefined) => (seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined);

/** `items` with the one at `from` moved to `to`. */
export function reorder<T>(items: readonly T[], from: number, to: number): T[] {
  const order = [...items];
  const [moved] = order.splice(from, 1);
  if (moved === undefined || to < 0 || to >= items.length) return [...items];
  order.splice(to, 0, moved);
  return order;
}

/**
 * Moving a playlist's song from `from` to `to`, as updatePlaylist can say it (it only removes by
 * index and appends): remove everything from the first index touched, append it back in the new order.
 */
export function moveChange(ids: readonly string[], from: number, to: number): { songIndexToRemove: number[]; songIdToAdd: string[] } {
  const order = reorder(ids, from, to);
  const first = order.findIndex((id, i) => id !== ids[i]);
  if (first === -1) return { songIndexToRemove: [], songIdToAdd: [] };
  return { songIndexToRemove: ids.map((_, i) => i).slice(first), songIdToAdd: order.slice(first) };
}

/**
 * Where the playing song is in the queue now (it may have moved when songs before it were
 * removed): the index of that song nearest where it was, or null when it left the queue.
 */
export function locate(queueIds: readonly string[], playing: { index: number; id: string }): number | null {
  let best: number | null = null;
  queueIds.forEach((id, i) => {
    if (id === playing.id && (best === null || Math.abs(i - playing.index) < Math.abs(best - playing.index))) best = i;
  });
  return best;
}

/** The song after (step 1) or before (step -1) the playing one, or null at either end. */
export function neighbour(queueIds: readonly string[], playing: { index: number; id: string }, step: 1 | -1): number | null {
  const at = locate(queueIds, playing);
  // A removed song's place is taken by the one after it: that is "next", the one before it "previous".
  const target = at === null ? (step === 1 ? playing.index : playing.index - 1) : at + step;
  return target >= 0 && target < queueIds.length ? target : null;
}

const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The play as createScrobble takes it; `startedAt` is when the play began, as scrobblers report it. */
export function scrobbleInput(song: Song, startedAt: Date, durationSeconds: number | undefined): Input<'app.svc.scrobble.createScrobble'> {
  const seconds = song.duration ?? durationSeconds;
  return {
    title: song.title,
    artist: song.artist,
    ...(song.album ? { album: song.album } : {}),
    ...(song.displayAlbumArtist ? { albumArtist: song.displayAlbumArtist } : {}),
    ...(seconds !== undefined && Number.isFinite(seconds) ? { duration: Math.round(seconds * 1000) } : {}),
    ...(song.track !== undefined && song.track >= 0 ? { trackNumber: song.track } : {}),
    ...(song.discNumber !== undefined && song.discNumber >= 0 ? { discNumber: song.discNumber } : {}),
    ...(song.musicBrainzId && MBID.test(song.musicBrainzId) ? { mbid: song.musicBrainzId } : {}),
    timestamp: startedAt.toISOString(),
  };
}

export const formatDuration = (seconds: number | undefined) =>
  seconds === undefined ? '' : `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/**
 * The whole queue from its pages (getPlaybackQueue answers a page from an offset; the server caps
 * the queue's size, so this ends): pages are read until `songCount` songs are in, or one comes back
 * empty because the queue shrank meanwhile.
 */
export async function wholeQueue<Q extends { songCount: number; entry: readonly unknown[] }>(page: (offset: number) => Promise<Q>): Promise<Q> {
  const first = await page(0);
  const entry = [...first.entry];
  while (entry.length < first.songCount) {
    const next = await page(entry.length);
    if (next.entry.length === 0) break;
    entry.push(...next.entry);
  }
  return { ...first, entry };
}
