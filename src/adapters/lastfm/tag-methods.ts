import { sql, type SqlBool } from 'kysely';
import { artistPlayCount, selectArtists } from '../../core/catalog/group-view.ts';
import { hasListedSong } from '../../core/catalog/song-view.ts';
import { requiredName } from './info-lookup.ts';
import { defineMethod } from './method.ts';
import { paging } from './read-params.ts';
import { element, list } from './response.ts';
import { images, pageLinks, pagingAttributes } from './shapes.ts';

/** No documented maximum; this bounds one answer all the same. */
const MAX_ENTRIES = 1000;

/**
 * Earshot's tags are its genres: an artist carries `tag` (in any letter case) when it is one of the
 * artist's genres (MusicBrainz's, or set by a catalog edit) or the genre of one of its songs (from
 * file tags or submissions). Only artists the catalog lists (with a played or library song) count.
 */
const taggedArtist = (tag: string) => sql<SqlBool>`(
  exists (select 1 from unnest(ar.genres) g where lower(g) = lower(${tag}))
  or exists (select 1 from tracks gt where gt.artist_id = ar.id and lower(gt.genre) = lower(${tag}))
) and ${hasListedSong('artist_id', 'ar')}`;

/** tag.getTopArtists: the artists carrying the tag, most played across the server first; an unknown tag is an empty list, as on Last.fm. */
export const getTagTopArtists = defineMethod({
  name: 'tag.getTopArtists',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const { db, config } = call.ctx;
    const tag = requiredName(call.params, 'tag');
    const page = paging(call.params, MAX_ENTRIES);
    const links = pageLinks(config.publicUrl);
    const order = [
      { expression: artistPlayCount, direction: 'desc' as const },
      { expression: sql.ref('ar.id'), direction: 'asc' as const },
    ];
    const [artists, total] = await Promise.all([
      selectArtists(db, { where: taggedArtist(tag), order, ...page }),
      db
        .selectFrom('artists as ar')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(taggedArtist(tag))
        .executeTakeFirstOrThrow(),
    ]);
    const entries = artists.map((artist, index) =>
      element(
        'artist',
        [
          element('name', artist.name),
          element('mbid', artist.mbid ?? ''),
          element('url', links.catalog('artist', artist.id)),
          element('streamable', '0'),
          ...images(artist.picture),
        ],
        { rank: String(page.offset + index + 1) },
      ),
    );
    return list('topartists', 'artist', entries, { tag, ...pagingAttributes(page.page, page.limit, Number(total.n)) });
  },
});
