/**
 * Jellyfin, through its webhook plugin's Generic destination with "Send All Properties": one JSON
 * object per notification, flat, named by the plugin's template variables (NotificationType,
 * ItemType, Name, Artist, Album, RunTimeTicks, PlaybackPositionTicks, PlayedToCompletion,
 * NotificationUsername, UtcTimestamp, Provider_<id>).
 */
import { invalidRequest } from '../../toolkit/errors.ts';
import { mbid, otherUser, picked, text, ticksMs, time, truth, type Json, type Reading } from './payload.ts';

/** What is kept with a play: the track and the playback, not the server, device or address. */
const KEPT = [
  'NotificationType',
  'ItemId',
  'ItemType',
  'Name',
  'Artist',
  'Artists',
  'Album',
  'AlbumArtist',
  'RunTimeTicks',
  'PlaybackPositionTicks',
  'PlayedToCompletion',
  'UtcTimestamp',
  'ClientName',
  'Provider_musicbrainztrack',
  'Provider_musicbrainzalbum',
  'Provider_musicbrainzartist',
];

/** `Artist` as the template writes it, or the first of an `Artists` list some templates send. */
function artistOf(body: Json): string | undefined {
  if (Array.isArray(body.Artists)) return text(body.Artist) ?? text(body.Artists[0]);
  return text(body.Artist) ?? text(body.Artists) ?? text(body.AlbumArtist);
}

export function jellyfinReading(body: Json, user: string | undefined): Reading {
  const type = text(body.NotificationType);
  if (!type) throw invalidRequest('NotificationType is missing: use the Generic destination with "Send All Properties" (or a template that sends it)');
  if (type === 'PlaybackProgress') return { ignored: 'progress is not needed: the start and the stop say it all' };
  if (type !== 'PlaybackStart' && type !== 'PlaybackStop') return { ignored: `${type} is not a playback event` };
  const itemType = text(body.ItemType);
  if (itemType !== 'Audio' && itemType !== 'Song') return { ignored: `not a track (ItemType ${itemType ?? 'missing'})` };
  if (otherUser(user, text(body.NotificationUsername) ?? text(body.Username))) return { ignored: 'another user of the server' };
  const title = text(body.Name);
  const artist = artistOf(body);
  if (!title || !artist) return { ignored: 'the event names no track title or artist' };
  const track = {
    title,
    artist,
    album: text(body.Album),
    albumArtist: text(body.AlbumArtist),
    durationMs: ticksMs(body.RunTimeTicks),
    mbid: mbid(body.Provider_musicbrainztrack),
    albumMbid: mbid(body.Provider_musicbrainzalbum),
    artistMbid: mbid(body.Provider_musicbrainzartist),
  };
  const submitted = { jellyfin: picked(body, KEPT) };
  if (type === 'PlaybackStart') return { event: { kind: 'started', track, submitted } };
  return {
    event: {
      kind: 'stopped',
      track,
      positionMs: ticksMs(body.PlaybackPositionTicks),
      completed: truth(body.PlayedToCompletion),
      at: time(body.UtcTimestamp),
      submitted,
    },
  };
}
