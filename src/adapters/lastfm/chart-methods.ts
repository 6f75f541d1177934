import {
  playedCount,
  topAlbums,
  topArtists,
  topSongs,
  type ActorAlbum,
  type ActorArtist,
  type TopPage,
  type TopSubject,
} from '../../core/catalog/actor-top.ts';
import type { Song } from '../../core/catalog/schemas.ts';
import type { AppContext } from '../../core/context.ts';
import type { Database } from '../../toolkit/db/index.ts';
import type { PlaysWindow } from '../../core/stats/rollups/reads.ts';
import { invalidParameters } from './errors.ts';
import { defineMethod } from './method.ts';
import { namedUser, optionalUnixTime, paging, periodWindow } from './read-params.ts';
import { element, list, type Element } from './response.ts';
import { pageLinks, pagingAttributes, unixTime } from './shapes.ts';
import {
  artistMbids,
  topAlbumElement,
  topArtistElement,
  topTrackElement,
  weeklyAlbumElement,
  weeklyArtistElement,
  weeklyTrackElement,
  type ListContext,
} from './top-lists.ts';

/**
 * user.getTopArtists/Albums/Tracks and the weekly charts: catalog/actor-top.ts' top lists (the ones
 * getActorArtists/Albums/Songs answer) over a period or a week, in Last.fm's shapes.
 */

/** Last.fm's largest page of a top list or weekly chart. */
const MAX_ENTRIES = 1000;

type EntryElement<T> = (context: ListContext, item: T, index: number) => Element;

interface Chart<T> {
  subject: TopSubject;
  fetch(db: Database, userId: string, window: PlaysWindow, page: TopPage): Promise<T[]>;
  /** The URI of the entry's artist, whose MBID Last.fm shows beside it. */
  artistUri(item: T): string | undefined;
  top: EntryElement<T>;
  weekly: EntryElement<T>;
}

const ARTISTS: Chart<ActorArtist> = { subject: 'artist', fetch: topArtists, artistUri: () => undefined, top: topArtistElement, weekly: weeklyArtistElement };
const ALBUMS: Chart<ActorAlbum> = {
  subject: 'album',
  fetch: topAlbums,
  artistUri: (album) => album.artistUri,
  top: topAlbumElement,
  weekly: weeklyAlbumElement,
};
const TRACKS: Chart<Song> = {
  subject: 'track',
  fetch: (db, userId, window, page) => topSongs(db, userId, window, page, null),
  artistUri: (song) => song.artistUri,
  top: topTrackElement,
  weekly: weeklyTrackElement,
};

async function chartEntries<T>(
  ctx: AppContext,
  chart: Chart<T>,
  userId: string,
  window: PlaysWindow,
  page: TopPage,
  entry: EntryElement<T>,
): Promise<Element[]> {
  const items = await chart.fetch(ctx.db, userId, window, page);
  const context = { links: pageLinks(ctx.config.publicUrl), mbids: await artistMbids(ctx.db, items.map(chart.artistUri)), firstRank: page.offset + 1 };
  return items.map((item, index) => entry(context, item, index));
}

function topMethod<T>(name: string, listName: string, itemName: string, chart: Chart<T>) {
  return defineMethod({
    name,
    postOnly: false,
    auth: 'apiKey',
    async handler(call) {
      const user = await namedUser(call);
      const { window } = periodWindow(call.params);
      const page = paging(call.params, MAX_ENTRIES);
      const [items, total] = await Promise.all([
        chartEntries(call.ctx, chart, user.id, window, page, chart.top),
        playedCount(call.ctx.db, user.id, window, chart.subject),
      ]);
      return list(listName, itemName, items, { user: user.handle, ...pagingAttributes(page.page, page.limit, total) });
    },
  });
}

export const getTopArtists = topMethod('user.getTopArtists', 'topartists', 'artist', ARTISTS);
export const getTopAlbums = topMethod('user.getTopAlbums', 'topalbums', 'album', ALBUMS);
export const getTopTracks = topMethod('user.getTopTracks', 'toptracks', 'track', TRACKS);

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;
/** Last.fm's charts turn on Sundays at noon UTC; the first such time after the epoch (a Thursday). */
const FIRST_SUNDAY_NOON_MS = 3.5 * 24 * HOUR_MS;

/** The last Sunday noon (UTC) at or before `ms`. */
const weekStartAtOrBefore = (ms: number) => FIRST_SUNDAY_NOON_MS + Math.floor((ms - FIRST_SUNDAY_NOON_MS) / WEEK_MS) * WEEK_MS;

/** `from`/`to` of a weekly chart: as given, a week from the one given, or (Last.fm's default) the 7 days up to the last noon UTC. */
function chartSpan(params: ReadonlyMap<string, string>, now = Date.now()): PlaysWindow {
  const from = optionalUnixTime(params, 'from');
  const to = optionalUnixTime(params, 'to');
  const lastNoon = Math.floor((now - 12 * HOUR_MS) / (24 * HOUR_MS)) * 24 * HOUR_MS + 12 * HOUR_MS;
  const end = to ?? (from ? new Date(from.getTime() + WEEK_MS) : new Date(lastNoon));
  const start = from ?? new Date(end.getTime() - WEEK_MS);
  if (start >= end) throw invalidParameters('from must be before to');
  return { start, end };
}

function weeklyMethod<T>(name: string, listName: string, itemName: string, chart: Chart<T>) {
  return defineMethod({
    name,
    postOnly: false,
    auth: 'apiKey',
    async handler(call) {
      const user = await namedUser(call);
      const span = chartSpan(call.params);
      const { limit } = paging(call.params, MAX_ENTRIES, MAX_ENTRIES);
      const items = await chartEntries(call.ctx, chart, user.id, span, { limit, offset: 0 }, chart.weekly);
      return list(listName, itemName, items, { user: user.handle, from: String(unixTime(span.start)), to: String(unixTime(span.end)) });
    },
  });
}

export const getWeeklyArtistChart = weeklyMethod('user.getWeeklyArtistChart', 'weeklyartistchart', 'artist', ARTISTS);
export const getWeeklyAlbumChart = weeklyMethod('user.getWeeklyAlbumChart', 'weeklyalbumchart', 'album', ALBUMS);
export const getWeeklyTrackChart = weeklyMethod('user.getWeeklyTrackChart', 'weeklytrackchart', 'track', TRACKS);

/** user.getWeeklyChartList: every whole week, Sunday noon to Sunday noon UTC, from the one holding the user's first play. */
export const getWeeklyChartList = defineMethod({
  name: 'user.getWeeklyChartList',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const user = await namedUser(call);
    const first = await call.ctx.db
      .selectFrom('scrobbles')
      .select((eb) => eb.fn.min('listened_at').as('at'))
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    const charts: Element[] = [];
    if (first?.at) {
      const now = Date.now();
      for (let start = weekStartAtOrBefore(new Date(first.at).getTime()); start + WEEK_MS <= now; start += WEEK_MS) {
        charts.push(element('chart', '', { from: String(start / 1000), to: String((start + WEEK_MS) / 1000) }));
      }
    }
    return list('weeklychartlist', 'chart', charts, { user: user.handle });
  },
});
