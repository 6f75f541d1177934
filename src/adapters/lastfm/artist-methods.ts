import { artistListSizes, artistTopAlbums, artistTopSongs } from '../../core/catalog/artist-album-pages.ts';
import { artistById, findArtist, type NamedArtist } from './info-lookup.ts';
import { defineMethod } from './method.ts';
import { paging } from './read-params.ts';
import { element, list } from './response.ts';
import { artistRef, images, pageLinks, pagingAttributes, type PageLinks } from './shapes.ts';

/**
 * artist.getTopTracks and artist.getTopAlbums: the artist (`artist` by name, matched as plays are,
 * old names included, or `mbid`) and their songs or albums most played across the server first,
 * the lists the artist's page shows (catalog/artist-album-pages.ts).
 */

/** No documented maximum; this bounds one answer all the same. */
const MAX_ENTRIES = 1000;

const artistElement = (links: PageLinks, artist: NamedArtist) => artistRef(links, artist.name, artist.id, artist.mbid);

export const getArtistTopTracks = defineMethod({
  name: 'artist.getTopTracks',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const { db, config } = call.ctx;
    const artist = await artistById(db, await findArtist(db, call.params));
    const page = paging(call.params, MAX_ENTRIES);
    const links = pageLinks(config.publicUrl);
    const [songs, sizes] = await Promise.all([artistTopSongs(db, artist.id, page, null), artistListSizes(db, artist.id)]);
    const tracks = songs.map((song, index) =>
      element(
        'track',
        [
          element('name', song.title),
          element('playcount', String(song.playCount)),
          element('listeners', String(song.uniqueListeners)),
          element('mbid', song.mbid ?? ''),
          element('url', links.catalog('song', song.id)),
          element('streamable', '0'),
          artistElement(links, artist),
          ...images(song.albumArt),
        ],
        { rank: String(page.offset + index + 1) },
      ),
    );
    return list('toptracks', 'track', tracks, { artist: artist.name, ...pagingAttributes(page.page, page.limit, sizes.songs) });
  },
});

export const getArtistTopAlbums = defineMethod({
  name: 'artist.getTopAlbums',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const { db, config } = call.ctx;
    const artist = await artistById(db, await findArtist(db, call.params));
    const page = paging(call.params, MAX_ENTRIES);
    const links = pageLinks(config.publicUrl);
    const [albums, sizes] = await Promise.all([artistTopAlbums(db, artist.id, page), artistListSizes(db, artist.id)]);
    // Last.fm's JSON gives this list's playcount as a number, and its entries no rank.
    const entries = albums.map((album) =>
      element('album', [
        element('name', album.title),
        element('playcount', album.playCount),
        element('mbid', album.mbid ?? ''),
        element('url', links.catalog('album', album.id)),
        artistElement(links, artist),
        ...images(album.albumArt),
      ]),
    );
    return list('topalbums', 'album', entries, { artist: artist.name, ...pagingAttributes(page.page, page.limit, sizes.albums) });
  },
});
