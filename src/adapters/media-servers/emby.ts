/**
 * Emby (4.7 and later): Settings → Webhooks posts JSON (or, if chosen, a multipart form with the
 * JSON in a `data` field): `Event` (playback.start, playback.pause, playback.unpause,
 * playback.stop, and others about the library and users), `Date`, `User` {Name}, `Item` {Name,
 * Type "Audio", Album, AlbumArtist, Artists[], RunTimeTicks, ProviderIds} and `PlaybackInfo`
 * {PositionTicks, PlayedToCompletion}.
 */
import { isObject, mbid, otherUser, picked, text, ticksMs, time, truth, type Json, type Reading } from './payload.ts';
import { artistCredit } from '../../core/catalog/track-metadata.ts';

const KEPT = ['Id', 'Type', 'Name', 'Album', 'AlbumArtist', 'Artists', 'RunTimeTicks', 'IndexNumber', 'ParentIndexNumber', 'ProviderIds'];

function artistOf(item: Json): string | undefined {
  const names = Array.isArray(item.Artists) ? item.Artists.flatMap((name) => text(name) ?? []) : [];
  return names.length > 0 ? artistCredit(names) : text(item.AlbumArtist);
}

export function embyReading(body: Json, user: string | undefined): Reading {
  const event = text(body.Event);
  if (!event) return { ignored: 'no Event' };
  const kind = event === 'playback.start' || event === 'playback.unpause' ? 'started' : event === 'playback.stop' ? 'stopped' : undefined;
  if (!kind) return { ignored: `${event} is not a start or a stop` };
  const item = isObject(body.Item) ? body.Item : undefined;
  if (item?.Type !== 'Audio') return { ignored: `not a track (${text(item?.Type) ?? 'no Item'})` };
  if (otherUser(user, isObject(body.User) ? text(body.User.Name) : undefined)) return { ignored: 'another user of the server' };
  const title = text(item.Name);
  const artist = artistOf(item);
  if (!title || !artist) return { ignored: 'the event names no track title or artist' };
  const ids = isObject(item.ProviderIds) ? item.ProviderIds : {};
  const track = {
    title,
    artist,
    album: text(item.Album),
    albumArtist: text(item.AlbumArtist),
    durationMs: ticksMs(item.RunTimeTicks),
    mbid: mbid(ids.MusicBrainzTrack),
    albumMbid: mbid(ids.MusicBrainzAlbum),
  };
  const submitted = { emby: { Event: event, Item: picked(item, KEPT) } };
  if (kind === 'started') return { event: { kind, track, submitted } };
  const playback = isObject(body.PlaybackInfo) ? body.PlaybackInfo : {};
  return {
    event: { kind, track, positionMs: ticksMs(playback.PositionTicks), completed: truth(playback.PlayedToCompletion), at: time(body.Date), submitted },
  };
}
