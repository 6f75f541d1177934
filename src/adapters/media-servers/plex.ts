/**
 * Plex (with Plex Pass): Settings → Webhooks posts multipart/form-data, a `payload` field holding
 * the event's JSON and, for some events, a `thumb` picture (dropped unread). `event` is
 * media.play, media.pause, media.resume, media.stop, media.scrobble (Plex's own judgement that the
 * track was played, at about 90 %) and others about the library; `Metadata` is the item: for a
 * track `type` "track", `title`, `grandparentTitle` (the album artist), `parentTitle` (the album),
 * `originalTitle` (the track's artist when it is not the album's), `duration` and `viewOffset` (ms).
 */
import { isObject, otherUser, picked, text, whole, type Json, type Reading } from './payload.ts';

const KEPT = ['ratingKey', 'guid', 'type', 'title', 'grandparentTitle', 'parentTitle', 'originalTitle', 'duration', 'viewOffset', 'index', 'parentIndex'];

export function plexReading(body: Json, user: string | undefined): Reading {
  const event = text(body.event);
  if (!event) return { ignored: 'no event' };
  const metadata = isObject(body.Metadata) ? body.Metadata : undefined;
  const kind = event === 'media.play' || event === 'media.resume' ? 'started' : event === 'media.scrobble' ? 'scrobbled' : undefined;
  // media.stop is not a play of its own: Plex sends media.scrobble for the plays it counts, and both would be one play twice.
  if (!kind) return { ignored: `${event} is not a play or a start` };
  if (metadata?.type !== 'track') return { ignored: `not a track (${text(metadata?.type) ?? 'no Metadata'})` };
  const account = isObject(body.Account) ? text(body.Account.title) : undefined;
  if (otherUser(user, account)) return { ignored: 'another user of the server' };
  const title = text(metadata.title);
  const albumArtist = text(metadata.grandparentTitle);
  const artist = text(metadata.originalTitle) ?? albumArtist;
  if (!title || !artist) return { ignored: 'the event names no track title or artist' };
  const track = {
    title,
    artist,
    album: text(metadata.parentTitle),
    albumArtist,
    durationMs: whole(metadata.duration),
    trackNumber: whole(metadata.index),
    discNumber: whole(metadata.parentIndex),
  };
  const submitted = { plex: { event, Metadata: picked(metadata, KEPT) } };
  if (kind === 'started') return { event: { kind, track, submitted } };
  return { event: { kind, track, positionMs: whole(metadata.viewOffset), submitted } };
}
