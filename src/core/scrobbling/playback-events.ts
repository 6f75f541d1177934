/**
 * Plays from sources that report playback rather than scrobbles: media servers (Jellyfin, Plex,
 * Emby) post an event when a track starts, pauses, resumes and stops. A start sets what the user
 * is playing now; a stop becomes a play when it passes the scrobble rule (listen-rules.ts), with
 * how long it was played; a server that decides for itself (Plex's scrobble event) is taken at
 * its word.
 *
 * Nothing is kept between events: the stop alone says enough. The play started its position
 * before the stop (the event's own time when the server sends one, else now), in whole seconds,
 * so the same stop posted twice is the same play, stored once. Time spent paused is not played
 * time, and the position leaves it out, as it leaves out a seek; the start time is approximate by
 * as much, which only moves where in the day the play is counted.
 */
import type { AppContext } from '../context.ts';
import type { TrackMetadata } from '../catalog/track-metadata.ts';
import { ingestListens, updateNowPlaying, type ListenSource } from './ingest.ts';
import { playCounts } from './listen-rules.ts';

export type PlaybackEvent =
  /** Playback began (or resumed): now playing. */
  | { kind: 'started'; track: TrackMetadata; submitted: Record<string, unknown> }
  /**
   * Playback ended: a play if it lasted long enough. `positionMs` is where it stopped; `completed`
   * that the server saw it to the end; `at` the server's time of the event, when it says.
   */
  | {
      kind: 'stopped';
      track: TrackMetadata;
      positionMs?: number | undefined;
      completed?: boolean | undefined;
      at?: Date | undefined;
      submitted: Record<string, unknown>;
    }
  /** The server counted the play itself (Plex at 90 %): a play whatever the rule says. */
  | { kind: 'scrobbled'; track: TrackMetadata; positionMs?: number | undefined; submitted: Record<string, unknown> };

export type PlaybackOutcome =
  | { status: 'playing'; trackId: string }
  | { status: 'stored' | 'duplicate'; scrobbleId: string; trackId: string; playedMs?: number | undefined }
  | { status: 'ignored'; reason: string };

/** How long the play lasted: to the end when the server saw it through, else its position. */
function playedTime(event: Extract<PlaybackEvent, { kind: 'stopped' | 'scrobbled' }>): number | undefined {
  const duration = event.track.durationMs;
  if (event.kind === 'stopped' && event.completed && duration !== undefined) return Math.max(duration, event.positionMs ?? 0);
  return event.positionMs;
}

/** Applies one playback event of the user's; `source` names the server ('jellyfin', 'plex', 'emby'). */
export async function recordPlaybackEvent(ctx: AppContext, userId: string, event: PlaybackEvent, source: ListenSource): Promise<PlaybackOutcome> {
  if (event.kind === 'started') {
    const outcome = await updateNowPlaying(ctx, userId, { ...event.track, submitted: event.submitted });
    return outcome.status === 'updated' ? { status: 'playing', trackId: outcome.trackId } : outcome;
  }
  const playedMs = playedTime(event);
  if (event.kind === 'stopped') {
    if (playedMs === undefined) return { status: 'ignored', reason: 'the stop gives no playback position' };
    if (!playCounts(playedMs, event.track.durationMs)) return { status: 'ignored', reason: 'played for less than half the track and under 4 minutes' };
  }
  const end = (event.kind === 'stopped' ? event.at : undefined)?.getTime() ?? Date.now();
  const listenedAt = new Date(Math.floor((end - (playedMs ?? event.track.durationMs ?? 0)) / 1000) * 1000);
  const [outcome] = await ingestListens(ctx, userId, [{ ...event.track, listenedAt, playedMs, submitted: event.submitted }], source);
  if (outcome!.status === 'ignored') return outcome!;
  return { ...outcome!, ...(playedMs !== undefined && { playedMs }) };
}
