import { artistById, artistNamed, namedPair, requiredName, trackNamed } from './info-lookup.ts';
import { defineMethod } from './method.ts';
import { element, type Element } from './response.ts';
import { artistRef, pageLinks } from './shapes.ts';
import { trackRows } from './track-rows.ts';

/**
 * track.getCorrection and artist.getCorrection: the names the catalog keeps for what a client's
 * names match, as plays are matched (case, accents and "feat." credits aside, and the old names
 * merges and renames leave behind as aliases). A `*corrected` flag is 1 when the kept name differs
 * from the one sent.
 */

const corrected = (kept: string, sent: string) => (kept === sent ? '0' : '1');

const corrections = (correction: Element | null) => element('corrections', correction ? [correction] : '');

export const getTrackCorrection = defineMethod({
  name: 'track.getCorrection',
  postOnly: false,
  auth: 'apiKey',
  async handler({ ctx, params }) {
    const [artist, title] = namedPair(params, 'artist', 'track');
    const id = await trackNamed(ctx.db, artist, title);
    const row = id ? await trackRows(ctx.db).where('t.id', '=', id).executeTakeFirstOrThrow() : undefined;
    const links = pageLinks(ctx.config.publicUrl);
    // An unknown track is, on Last.fm, a correction with empty urls and nothing corrected.
    const track = row
      ? element('track', [
          element('name', row.title),
          element('mbid', row.mbid ?? ''),
          element('url', links.catalog('song', row.id)),
          artistRef(links, row.artist, row.artist_id, row.artist_mbid),
        ])
      : element('track', [element('url', ''), element('artist', [element('url', '')])]);
    const flags = {
      index: '0',
      artistcorrected: row ? corrected(row.artist, artist) : '0',
      trackcorrected: row ? corrected(row.title, title) : '0',
    };
    return corrections(element('correction', [track], flags));
  },
});

export const getArtistCorrection = defineMethod({
  name: 'artist.getCorrection',
  postOnly: false,
  auth: 'apiKey',
  async handler({ ctx, params }) {
    const id = await artistNamed(ctx.db, requiredName(params, 'artist'));
    if (!id) return corrections(null);
    const artist = await artistById(ctx.db, id);
    return corrections(element('correction', [artistRef(pageLinks(ctx.config.publicUrl), artist.name, artist.id, artist.mbid)], { index: '0' }));
  },
});
