import type { ActorAlbum, ActorArtist } from '../../core/catalog/actor-top.ts';
import type { Song } from '../../core/catalog/schemas.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { element, type Element } from './response.ts';
import { artistRef, idOfUri, images, notStreamable, type PageLinks } from './shapes.ts';

/** The entries of user.getTop* and the weekly charts, from catalog/actor-top.ts' lists; `rank` counts from the page's start. */

/** The MBIDs of the artists a list names: Songs and albums carry their artist's URI only. */
export async function artistMbids(db: Database, uris: (string | undefined)[]): Promise<Map<string, string>> {
  const ids = [...new Set(uris.map(idOfUri).filter((id): id is string => !!id))];
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('artists').select(['id', 'mbid']).where('id', 'in', ids).where('mbid', 'is not', null).execute();
  return new Map(rows.map((row) => [row.id, row.mbid!]));
}

export interface ListContext {
  links: PageLinks;
  mbids: Map<string, string>;
  /** Rank of the first entry. */
  firstRank: number;
}

const rank = (context: ListContext, index: number) => ({ rank: String(context.firstRank + index) });
const artistOf = (context: ListContext, name: string, uri: string | undefined) => {
  const id = idOfUri(uri);
  return artistRef(context.links, name, id, id ? context.mbids.get(id) : undefined);
};

export function topArtistElement(context: ListContext, artist: ActorArtist, index: number): Element {
  const fields = [
    element('name', artist.name),
    element('playcount', String(artist.playCount)),
    element('mbid', artist.mbid ?? ''),
    element('url', context.links.catalog('artist', artist.id)),
    element('streamable', '0'),
    ...images(artist.picture),
  ];
  return element('artist', fields, rank(context, index));
}

export function topAlbumElement(context: ListContext, album: ActorAlbum, index: number): Element {
  const fields = [
    element('name', album.title),
    element('playcount', String(album.playCount)),
    element('mbid', album.mbid ?? ''),
    element('url', context.links.catalog('album', album.id)),
    artistOf(context, album.artist, album.artistUri),
    ...images(album.albumArt),
  ];
  return element('album', fields, rank(context, index));
}

export function topTrackElement(context: ListContext, song: Song, index: number): Element {
  const fields = [
    element('name', song.title),
    element('duration', String(Math.round((song.duration ?? 0) / 1000))),
    element('playcount', String(song.playCount)),
    element('mbid', song.mbid ?? ''),
    element('url', context.links.catalog('song', song.id)),
    notStreamable(),
    artistOf(context, song.artist, song.artistUri),
    ...images(song.albumArt),
  ];
  return element('track', fields, rank(context, index));
}

/** Weekly charts name the artist as text with an `mbid` attribute, Last.fm's shorter form. */
const artistText = (context: ListContext, name: string, uri: string | undefined) => {
  const id = idOfUri(uri);
  return element('artist', name, { mbid: (id && context.mbids.get(id)) || '' });
};

export function weeklyArtistElement(context: ListContext, artist: ActorArtist, index: number): Element {
  const fields = [
    element('name', artist.name),
    element('mbid', artist.mbid ?? ''),
    element('playcount', String(artist.playCount)),
    element('url', context.links.catalog('artist', artist.id)),
  ];
  return element('artist', fields, rank(context, index));
}

export function weeklyAlbumElement(context: ListContext, album: ActorAlbum, index: number): Element {
  const fields = [
    artistText(context, album.artist, album.artistUri),
    element('name', album.title),
    element('mbid', album.mbid ?? ''),
    element('playcount', String(album.playCount)),
    element('url', context.links.catalog('album', album.id)),
  ];
  return element('album', fields, rank(context, index));
}

export function weeklyTrackElement(context: ListContext, song: Song, index: number): Element {
  const fields = [
    artistText(context, song.artist, song.artistUri),
    ...images(song.albumArt),
    element('name', song.title),
    element('mbid', song.mbid ?? ''),
    element('playcount', String(song.playCount)),
    element('url', context.links.catalog('song', song.id)),
  ];
  return element('track', fields, rank(context, index));
}
