import { songArt } from '../../core/song-art.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { artistRef, dateElement, images, notStreamable, type PageLinks } from './shapes.ts';
import { element, type Element } from './response.ts';

/**
 * Catalog tracks with what Last.fm's track entries show of their artist and album (MBIDs, pictures);
 * join the source of a list (plays, likes, now playing) onto `t`.
 */
export const trackRows = (db: Database) =>
  db
    .selectFrom('tracks as t')
    .leftJoin('artists as ar', 'ar.id', 't.artist_id')
    .leftJoin('albums as al', 'al.id', 't.album_id')
    .select([
      't.id',
      't.title',
      't.artist',
      't.artist_id',
      'ar.mbid as artist_mbid',
      'ar.picture as artist_picture',
      't.album',
      't.album_id',
      'al.mbid as album_mbid',
      't.mbid',
      't.duration',
      songArt('t').as('album_art'),
    ]);

export type TrackRow = Awaited<ReturnType<ReturnType<typeof trackRows>['executeTakeFirstOrThrow']>>;

/** A track as user.getRecentTracks lists it; `extended` gives the artist as an element with its url and pictures. */
export function recentTrackElement(links: PageLinks, row: TrackRow, extended: boolean): Element[] {
  const artist = extended
    ? element('artist', [
        element('url', links.catalog('artist', row.artist_id)),
        element('name', row.artist),
        ...images(row.artist_picture),
        element('mbid', row.artist_mbid ?? ''),
      ])
    : element('artist', row.artist, { mbid: row.artist_mbid ?? '' });
  return [
    artist,
    element('streamable', '0'),
    ...images(row.album_art),
    element('mbid', row.mbid ?? ''),
    element('album', row.album ?? '', { mbid: row.album_mbid ?? '' }),
    element('name', row.title),
    element('url', links.catalog('song', row.id)),
  ];
}

/** A track as user.getLovedTracks lists it (with the like's `date`) and the top and weekly lists: the artist as `{name, mbid, url}`. */
export function listedTrackElements(links: PageLinks, row: TrackRow, date?: Date): Element[] {
  return [
    element('name', row.title),
    element('mbid', row.mbid ?? ''),
    element('url', links.catalog('song', row.id)),
    ...(date ? [dateElement(date)] : []),
    artistRef(links, row.artist, row.artist_id, row.artist_mbid),
    ...images(row.album_art),
    notStreamable(),
  ];
}
