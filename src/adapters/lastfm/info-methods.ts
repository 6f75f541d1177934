import { sql } from 'kysely';
import { ALBUM_ORDER, MAX_ALBUM_TRACKS } from '../../core/catalog/artist-album-pages.ts';
import { selectAlbums, selectArtists } from '../../core/catalog/group-view.ts';
import { allSongs, listedSongs, selectSongs, toSong } from '../../core/catalog/song-view.ts';
import type { User } from '../../core/auth/index.ts';
import { findAlbum, findArtist, findTrack, userPlays } from './info-lookup.ts';
import { defineMethod, type MethodCall } from './method.ts';
import { optionalText } from './params.ts';
import { namedUser } from './read-params.ts';
import { element, list, type Element } from './response.ts';
import { artistRef, idOfUri, images, notStreamable, pageLinks } from './shapes.ts';
import { trackRows } from './track-rows.ts';

/**
 * track.getInfo, artist.getInfo and album.getInfo: an entry by `mbid` or by names, with its
 * listeners and plays across the server, and with `username` that user's plays (and, for a
 * track, whether they love it).
 */

/** The user `username` names, when the call gives one. */
const contextUser = (call: MethodCall<'apiKey'>): Promise<User> | null => (optionalText(call.params, 'username') ? namedUser(call, 'username') : null);

const tags = (name: string, values: string[]) =>
  list(
    name,
    'tag',
    values.map((value) => element('tag', [element('name', value), element('url', '')])),
  );

export const getTrackInfo = defineMethod({
  name: 'track.getInfo',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const { db, config } = call.ctx;
    const [id, user] = await Promise.all([findTrack(db, call.params), contextUser(call)]);
    const links = pageLinks(config.publicUrl);
    const [[song], row] = await Promise.all([
      selectSongs(db, allSongs(db), { where: sql`t.id = ${id}`, order: [], limit: 1 }, user?.id ?? null),
      trackRows(db).where('t.id', '=', id).executeTakeFirstOrThrow(),
    ]);
    const { playCount, uniqueListeners, liked, tags: songTags, genre } = toSong(song!);
    const album = row.album
      ? [
          element(
            'album',
            [
              element('artist', song!.album_artist ?? row.artist),
              element('title', row.album),
              element('mbid', row.album_mbid ?? ''),
              element('url', links.catalog('album', row.album_id)),
              ...images(row.album_art),
            ],
            song!.track_number ? { position: String(song!.track_number) } : undefined,
          ),
        ]
      : [];
    const personal = user ? [element('userplaycount', String(await userPlays(db, user.id, 'track', id))), element('userloved', liked ? '1' : '0')] : [];
    return element('track', [
      element('name', row.title),
      element('mbid', row.mbid ?? ''),
      element('url', links.catalog('song', id)),
      element('duration', String(row.duration ?? 0)),
      notStreamable(),
      element('listeners', String(uniqueListeners)),
      element('playcount', String(playCount)),
      artistRef(links, row.artist, row.artist_id, row.artist_mbid),
      ...album,
      ...personal,
      tags('toptags', songTags.length > 0 ? songTags : genre ? [genre] : []),
    ]);
  },
});

export const getArtistInfo = defineMethod({
  name: 'artist.getInfo',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const { db, config } = call.ctx;
    const [id, user] = await Promise.all([findArtist(db, call.params), contextUser(call)]);
    const [artist] = await selectArtists(db, { where: sql`ar.id = ${id}`, order: [], limit: 1 });
    const personal = user ? [element('userplaycount', String(await userPlays(db, user.id, 'artist', id)))] : [];
    return element('artist', [
      element('name', artist!.name),
      element('mbid', artist!.mbid ?? ''),
      element('url', pageLinks(config.publicUrl).catalog('artist', id)),
      ...images(artist!.picture),
      element('streamable', '0'),
      element('ontour', '0'),
      element('stats', [element('listeners', String(artist!.uniqueListeners)), element('playcount', String(artist!.playCount)), ...personal]),
      list('similar', 'artist', []),
      tags('tags', artist!.genres),
      element('bio', [element('published', ''), element('summary', ''), element('content', '')]),
    ]);
  },
});

export const getAlbumInfo = defineMethod({
  name: 'album.getInfo',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const { db, config } = call.ctx;
    const [id, user] = await Promise.all([findAlbum(db, call.params), contextUser(call)]);
    const links = pageLinks(config.publicUrl);
    const [[album], songs] = await Promise.all([
      selectAlbums(db, { where: sql`al.id = ${id}`, order: [], limit: 1 }),
      selectSongs(db, listedSongs(db), { where: sql`t.album_id = ${id}`, order: ALBUM_ORDER, limit: MAX_ALBUM_TRACKS }, null),
    ]);
    const tracks: Element[] = songs
      .map(toSong)
      .map((song, index) =>
        element(
          'track',
          [
            element('name', song.title),
            element('url', links.catalog('song', song.id)),
            element('duration', String(Math.round((song.duration ?? 0) / 1000))),
            notStreamable(),
            artistRef(links, song.artist, idOfUri(song.artistUri)),
          ],
          { rank: String(song.trackNumber ?? index + 1) },
        ),
      );
    const personal = user ? [element('userplaycount', String(await userPlays(db, user.id, 'album', id)))] : [];
    return element('album', [
      element('name', album!.title),
      element('artist', album!.artist),
      element('mbid', album!.mbid ?? ''),
      element('url', links.catalog('album', id)),
      ...images(album!.albumArt),
      element('listeners', String(album!.uniqueListeners)),
      element('playcount', String(album!.playCount)),
      ...personal,
      list('tracks', 'track', tracks),
      tags('tags', album!.genre ? [album!.genre] : []),
    ]);
  },
});
