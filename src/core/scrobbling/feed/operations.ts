import { Type } from '@sinclair/typebox';
import { defineQuery } from '../../../adapters/http/operation.ts';
import { authMissing, invalidRequest, notFound } from '../../../toolkit/errors.ts';
import { DateTime, Uuid } from '../../../toolkit/schemas.ts';
import { ActorParam, userFromActorParam } from '../../auth/index.ts';
import type { Viewer } from '../../auth/index.ts';
import type { AppContext } from '../../context.ts';
import { Scrobble } from '../schemas.ts';
import { selectScrobbleViews } from '../view.ts';
import { parseFeedUri, RECENT_FEED } from './feed-uri.ts';
import { nowPlayingIn } from './now-playing.ts';
import { scrobblePage, type ScrobbleScope } from './page.ts';

const PageParams = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'scrobbles per page' }),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'the `cursor` of the previous page' })),
};
const Cursor = Type.Optional(Type.String({ description: 'pass as `cursor` for the next page; absent on the last page' }));

async function feedScope(ctx: AppContext, viewer: Viewer | null, feed: string): Promise<ScrobbleScope> {
  const source = parseFeedUri(feed);
  if (!source) throw invalidRequest(`unknown feed ${feed}; built-in feeds: earshot:feed:recent, earshot:feed:following, earshot:feed:user:<did-or-handle>`);
  switch (source.kind) {
    case 'recent':
      return { kind: 'everyone' };
    case 'following':
      if (!viewer) throw authMissing('the following feed needs authentication');
      return { kind: 'followedBy', userId: viewer.userId };
    case 'user':
      return { kind: 'user', userId: (await userFromActorParam(ctx.db, source.actor)).id };
  }
}

export const getFeed = defineQuery({
  nsid: 'app.svc.feed.getFeed',
  summary: 'A feed of scrobbles, newest first: everyone, the users the caller follows, or one user',
  auth: 'optional',
  params: Type.Object({
    feed: Type.String({ default: RECENT_FEED, maxLength: 2200, description: 'earshot:feed:recent, earshot:feed:following or earshot:feed:user:<did-or-handle>' }),
    ...PageParams,
  }),
  output: Type.Object({ feed: Type.Array(Type.Object({ scrobble: Scrobble })), cursor: Cursor, scrobbles: Type.Array(Scrobble) }),
  errors: ['InvalidRequest', 'AuthMissing', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const scope = await feedScope(ctx, viewer, params.feed);
    const page = await scrobblePage(ctx.db, viewer?.userId ?? null, scope, params);
    return { feed: page.scrobbles.map((scrobble) => ({ scrobble })), ...page };
  },
});

export const getNowPlaying = defineQuery({
  nsid: 'app.svc.feed.getNowPlaying',
  summary: 'Who is listening now, newest first, in a feed like getFeed: entries drop out when their track has run out',
  auth: 'optional',
  params: Type.Object({
    feed: Type.String({ default: RECENT_FEED, maxLength: 2200, description: 'earshot:feed:recent, earshot:feed:following or earshot:feed:user:<did-or-handle>' }),
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
    return { nowPlaying: await nowPlayingIn(ctx.db, await feedScope(ctx, viewer, params.feed), params.limit) };
  },
});

export const getActorScrobbles = defineQuery({
  nsid: 'app.svc.actor.getActorScrobbles',
  summary: "A user's scrobbles, newest first, paged like getFeed",
  auth: 'optional',
  params: Type.Object({ did: ActorParam(), ...PageParams }),
  output: Type.Object({ scrobbles: Type.Array(Scrobble), cursor: Cursor }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const user = await userFromActorParam(ctx.db, params.did);
    return scrobblePage(ctx.db, viewer?.userId ?? null, { kind: 'user', userId: user.id }, params);
  },
});

/** How a call names one scrobble: by uri or id (getScrobble, deleteScrobble, updateScrobble). */
export const ScrobbleRef = {
  uri: Type.Optional(Type.String({ maxLength: 200, description: 'earshot:scrobble:<id>' })),
  id: Type.Optional(Uuid()),
};

const SCROBBLE_URI = /^earshot:scrobble:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The scrobble id named by `uri` (earshot:scrobble:<id>) or `id`; 400 when neither or they differ. */
export function scrobbleIdFrom(params: { uri?: string | undefined; id?: string | undefined }): string {
  const fromUri = params.uri === undefined ? undefined : SCROBBLE_URI.exec(params.uri)?.[1];
  if (params.uri !== undefined && fromUri === undefined) throw invalidRequest('uri must be earshot:scrobble:<id>');
  const id = fromUri ?? params.id;
  if (id === undefined) throw invalidRequest('give the scrobble uri or id');
  if (params.id !== undefined && id.toLowerCase() !== params.id.toLowerCase()) throw invalidRequest('uri and id name different scrobbles');
  return id;
}

export const getScrobble = defineQuery({
  nsid: 'app.svc.scrobble.getScrobble',
  summary: 'One scrobble, by uri or id',
  auth: 'optional',
  params: Type.Object(ScrobbleRef),
  output: Type.Object({ scrobble: Scrobble }),
  errors: ['InvalidRequest', 'NotFound'],
  async handler({ params, viewer, ctx }) {
    const id = scrobbleIdFrom(params);
    const [found] = await selectScrobbleViews(ctx.db, viewer?.userId ?? null, (query) => query.where('s.id', '=', id));
    if (!found) throw notFound(`no scrobble ${id}`);
    return { scrobble: found.scrobble };
  },
});

export const feedOperations = [getFeed, getNowPlaying, getActorScrobbles, getScrobble];
