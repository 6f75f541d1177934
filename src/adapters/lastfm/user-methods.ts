import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { songLiked } from '../../core/catalog/likes.ts';
import { profileCounts } from '../../core/profiles/profile.ts';
import { currentNowPlaying } from '../../core/scrobbling/ingest.ts';
import { defineMethod } from './method.ts';
import { optionalText } from './params.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { namedPair, trackNamed } from './info-lookup.ts';
import { namedUser, optionalUnixTime, paging, type Paging } from './read-params.ts';
import { element, list, type Element } from './response.ts';
import { dateElement, images, pageLinks, pagingAttributes, unixTime } from './shapes.ts';
import { listedTrackElements, recentTrackElement, trackRows } from './track-rows.ts';

/** Last.fm's largest page of recent tracks. */
const MAX_RECENT_TRACKS = 200;
/** Loved tracks have no documented maximum; this bounds one answer all the same. */
const MAX_LOVED_TRACKS = 1000;

/** user.getInfo: the profile, its counts from the rollups, and Last.fm's fields Earshot has no data for as Last.fm's defaults. */
export const getInfo = defineMethod({
  name: 'user.getInfo',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const user = await namedUser(call);
    const { db, config } = call.ctx;
    const counts = await profileCounts(db, user, null);
    const playlists = await db
      .selectFrom('playlists')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    const registered = unixTime(user.createdAt);
    return element('user', [
      element('name', user.handle),
      element('age', '0'),
      element('subscriber', '0'),
      element('realname', user.displayName ?? ''),
      element('bootstrap', '0'),
      element('playcount', String(counts.scrobblesCount)),
      element('artist_count', String(counts.artistsCount)),
      element('playlists', String(playlists.n)),
      element('track_count', String(counts.songsCount)),
      ...images(user.avatar),
      element('registered', registered, { unixtime: String(registered) }),
      element('country', ''),
      element('gender', 'n'),
      element('url', pageLinks(config.publicUrl).user(user.handle)),
      element('type', 'user'),
    ]);
  },
});

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

/** The user's plays (`scrobbles as s`) from `from` inclusive to `to` exclusive, either side open when absent. */
const playsBetween = (userId: string, from: Date | undefined, to: Date | undefined) =>
  sql<SqlBool>`s.user_id = ${userId}${from ? sql` and s.listened_at >= ${at(from)}` : sql``}${to ? sql` and s.listened_at < ${at(to)}` : sql``}`;

/** Whether `userId` loves the track of a row (`t`). */
const lovedBy = (userId: string) => songLiked(sql.ref('t.id'), userId).as('loved');

/** One page of the plays `where` selects (`scrobbles as s`, one user's), newest first, with the track's `loved`, and their number. */
async function pagedPlays(db: Database, userId: string, where: RawBuilder<SqlBool>, page: Paging) {
  const [rows, total] = await Promise.all([
    trackRows(db)
      .innerJoin('scrobbles as s', 's.track_id', 't.id')
      .select(['s.listened_at', lovedBy(userId)])
      .where(where)
      .orderBy('s.listened_at', 'desc')
      .orderBy('s.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('scrobbles as s')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/**
 * user.getRecentTracks: plays newest first, `from` (inclusive) to `to` (exclusive) in UNIX seconds;
 * the track playing now comes first, marked `nowplaying="true"`, on the first page of a window that
 * reaches the present (it is not a play, so `total` leaves it out). `extended=1` adds the artist's
 * url and pictures and whether the user loves each track.
 */
export const getRecentTracks = defineMethod({
  name: 'user.getRecentTracks',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const user = await namedUser(call);
    const { ctx, params } = call;
    const page = paging(params, MAX_RECENT_TRACKS);
    const from = optionalUnixTime(params, 'from');
    const to = optionalUnixTime(params, 'to');
    const extended = optionalText(params, 'extended') === '1';
    const links = pageLinks(ctx.config.publicUrl);
    const [{ rows, total }, playing] = await Promise.all([
      pagedPlays(ctx.db, user.id, playsBetween(user.id, from, to), page),
      page.page === 1 && !to ? currentNowPlaying(ctx, user.id) : null,
    ]);
    const lovedElement = (isLoved: boolean) => (extended ? [element('loved', isLoved ? '1' : '0')] : []);
    const items: Element[] = rows.map((row) =>
      element('track', [...recentTrackElement(links, row, extended), dateElement(row.listened_at), ...lovedElement(row.loved)]),
    );
    if (playing) {
      const row = await trackRows(ctx.db).select(lovedBy(user.id)).where('t.id', '=', playing.trackId).executeTakeFirst();
      if (row) items.unshift(element('track', [...recentTrackElement(links, row, extended), ...lovedElement(row.loved)], { nowplaying: 'true' }));
    }
    return list('recenttracks', 'track', items, { user: user.handle, ...pagingAttributes(page.page, page.limit, total) });
  },
});

/**
 * user.getTrackScrobbles: the user's plays of `artist` - `track` (matched as plays are, so every
 * spelling the catalog took for that song), newest first, each as user.getRecentTracks lists it. A
 * track the catalog does not know has no plays: an empty list.
 */
export const getTrackScrobbles = defineMethod({
  name: 'user.getTrackScrobbles',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const user = await namedUser(call);
    const { ctx, params } = call;
    const page = paging(params, MAX_RECENT_TRACKS);
    const trackId = await trackNamed(ctx.db, ...namedPair(params, 'artist', 'track'));
    const links = pageLinks(ctx.config.publicUrl);
    const { rows, total } = trackId
      ? await pagedPlays(ctx.db, user.id, sql<SqlBool>`s.user_id = ${user.id} and s.track_id = ${trackId}`, page)
      : { rows: [], total: 0 };
    const items = rows.map((row) => element('track', [...recentTrackElement(links, row, false), dateElement(row.listened_at)]));
    return list('trackscrobbles', 'track', items, { user: user.handle, ...pagingAttributes(page.page, page.limit, total) });
  },
});

/** user.getLovedTracks: the songs the user likes, most recently liked first, each with the time of the like. */
export const getLovedTracks = defineMethod({
  name: 'user.getLovedTracks',
  postOnly: false,
  auth: 'apiKey',
  async handler(call) {
    const user = await namedUser(call);
    const { ctx, params } = call;
    const page = paging(params, MAX_LOVED_TRACKS);
    const links = pageLinks(ctx.config.publicUrl);
    const likedByUser = sql<SqlBool>`st.user_id = ${user.id} and st.subject_kind = 'song'`;
    const [rows, total] = await Promise.all([
      trackRows(ctx.db)
        .innerJoin('stars as st', 'st.subject_id', 't.id')
        .select('st.created_at as loved_at')
        .where(likedByUser)
        .orderBy('st.created_at', 'desc')
        .orderBy('t.id')
        .limit(page.limit)
        .offset(page.offset)
        .execute(),
      ctx.db
        .selectFrom('stars as st')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(likedByUser)
        .executeTakeFirstOrThrow(),
    ]);
    const items = rows.map((row) => element('track', listedTrackElements(links, row, row.loved_at)));
    return list('lovedtracks', 'track', items, { user: user.handle, ...pagingAttributes(page.page, page.limit, Number(total.n)) });
  },
});
