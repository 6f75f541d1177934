import type { CatalogKind } from '../../core/catalog/references.ts';
import { element, type Element } from './response.ts';

/** The pieces Last.fm's read answers are built of, each as Last.fm shapes it in XML and JSON. */

const IMAGE_SIZES = ['small', 'medium', 'large', 'extralarge'] as const;

/** `<image size="small">url</image>` in Last.fm's four sizes; Earshot keeps one picture, so each names it. */
export function images(url: string | null | undefined): Element[] {
  return IMAGE_SIZES.map((size) => element('image', url ?? '', { size }));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const twoDigits = (value: number) => String(value).padStart(2, '0');

export const unixTime = (date: Date) => Math.floor(date.getTime() / 1000);

/** `<date uts="1213031819">09 Jun 2008, 17:16</date>`: the time in UTC, as Last.fm writes it. */
export function dateElement(date: Date): Element {
  const text = `${twoDigits(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())}`;
  return element('date', text, { uts: String(unixTime(date)) });
}

const PAGE_PATHS: Record<CatalogKind, string> = { song: 'songs', artist: 'artists', album: 'albums' };

/** Web pages stand in for Last.fm's `url`s: Earshot's own page of a catalog entry or user. */
export interface PageLinks {
  catalog(kind: CatalogKind, id: string | null | undefined): string;
  user(handle: string): string;
}

export function pageLinks(publicUrl: string): PageLinks {
  return {
    catalog: (kind, id) => (id ? `${publicUrl}/${PAGE_PATHS[kind]}/${id}` : ''),
    user: (handle) => `${publicUrl}/u/${encodeURIComponent(handle)}`,
  };
}

/** The id inside an `earshot:<kind>:<id>` URI. */
export const idOfUri = (uri: string | undefined) => uri?.slice(uri.lastIndexOf(':') + 1);

/** Nothing Earshot serves is a Last.fm preview stream. */
export const notStreamable = () => element('streamable', '0', { fulltrack: '0' });

/** `page`, `perPage`, `totalPages` and `total` of a paged list, as strings like Last.fm's. */
export function pagingAttributes(page: number, perPage: number, total: number): Record<string, string> {
  return { page: String(page), perPage: String(perPage), totalPages: String(Math.ceil(total / perPage)), total: String(total) };
}

/** An artist named inside a track or album: `{name, mbid, url}`. */
export function artistRef(links: PageLinks, name: string, artistId: string | null | undefined, mbid?: string | null): Element {
  return element('artist', [element('name', name), element('mbid', mbid ?? ''), element('url', links.catalog('artist', artistId))]);
}
