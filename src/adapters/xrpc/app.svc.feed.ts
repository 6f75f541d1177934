/** The `app.svc.feed` group: feeds of scrobbles, who listens now, and searching the catalog and users. */
import { Type } from '@sinclair/typebox';
import { defineQuery } from '../http/operation.ts';
import { DateTime, Uuid } from '../../toolkit/schemas.ts';
import { AlbumView, ArtistView, Song } from '../../core/catalog/schemas.ts';
import { searchCatalog } from '../../core/catalog/search.ts';
import { RECENT_FEED } from '../../core/scrobbling/feed/feed-uri.ts';
import { feedNowPlaying, feedPage } from '../../core/scrobbling/feed/feeds.ts';
import { Scrobble } from '../../core/scrobbling/schemas.ts';
import { FeedCursor, FeedPageParams } from './shared/feed-page.ts';

const FeedParam = Type.String({
  default: RECENT_FEED,
  maxLength: 2200,
  description: 'earshot:feed:recent, earshot:feed:following or earshot:feed:user:<did-or-handle>',
});

const getFeed = defineQuery({
  nsid: 'app.svc.feed.getFeed',
  summary: 'A feed of scrobbles, newest first: everyone, the users the caller follows, or one user',
  auth: 'optional',
  params: Type.Object({ feed: FeedParam, ...FeedPageParams }),
  output: Type.Object({ feed: Type.Array(Type.Object({ scrobble: Scrobble })), cursor: FeedCursor, scrobbles: Type.Array(Scrobble) }),
  errors: ['InvalidRequest', 'AuthMissing', 'NotFound'],
  // Cacheable: scrobbles, their users and tracks, likes and follows are all committed rows, read
  // by the feed and its cursor; `liked` and the following feed are the caller's, which the key holds.
  cache: 'snapshot',
  async handler({ params, viewer, ctx }) {
    const page = await feedPage(ctx.db, viewer, params.feed, params);
    return { feed: page.scrobbles.map((scrobble) => ({ scrobble })), ...page };
  },
});

const getNowPlaying = defineQuery({
  nsid: 'app.svc.feed.getNowPlaying',
  summary: 'Who is listening now, newest first, in a feed like getFeed: entries drop out when their track has run out',
  auth: 'optional',
  params: Type.Object({
    feed: FeedParam,
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'listeners to show' }),
  }),
  output: Type.Object({
    nowPlaying: Type.Array(
      Type.Object({
        handle: Type.String(),
        did: Type.String(),
        displayName: Type.Optional(Type.String()),
        avatar: Type.Optional(Type.String()),
        title: Type.String(),
        artist: Type.String(),
        album: Type.Optional(Type.String()),
        trackId: Type.Optional(Uuid()),
        since: DateTime({ description: 'when the player reported the track' }),
      }),
    ),
  }),
  errors: ['InvalidRequest', 'AuthMissing', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    return { nowPlaying: await feedNowPlaying(ctx.db, viewer, params.feed, params.limit) };
  },
});

const UserResult = Type.Object({
  did: Type.String(),
  handle: Type.String(),
  displayName: Type.Optional(Type.String()),
  avatar: Type.Optional(Type.String()),
});

const search = defineQuery({
  nsid: 'app.svc.feed.search',
  summary: 'Artists, albums, songs and users whose names contain the query (case, accents and punctuation folded)',
  auth: 'optional',
  params: Type.Object({
    q: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'per kind of result' }),
  }),
  output: Type.Object({ artists: Type.Array(ArtistView), albums: Type.Array(AlbumView), songs: Type.Array(Song), users: Type.Array(UserResult) }),
  errors: ['InvalidRequest'],
  handler: ({ params, viewer, ctx }) => searchCatalog(ctx.db, params.q, params.limit, viewer?.userId ?? null),
});

export const feedOperations = [getFeed, getNowPlaying, search];
