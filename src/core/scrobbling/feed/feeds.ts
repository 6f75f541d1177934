/**
 * The feeds a caller reads by uri (earshot:feed:recent, earshot:feed:following,
 * earshot:feed:user:<did-or-handle>): their scrobbles a page at a time, and who in them listens now.
 */
import { authMissing, invalidRequest } from '../../../toolkit/errors.ts';
import type { Database } from '../../../toolkit/db/index.ts';
import { userFromActorParam, type Viewer } from '../../auth/index.ts';
import { parseFeedUri } from './feed-uri.ts';
import { nowPlayingIn, type NowPlayingView } from './now-playing.ts';
import { scrobblePage, type ScrobblePage, type ScrobbleScope } from './page.ts';

export interface FeedPageRequest {
  limit: number;
  cursor?: string | undefined;
}

async function feedScope(db: Database, viewer: Viewer | null, feed: string): Promise<ScrobbleScope> {
  const source = parseFeedUri(feed);
  if (!source) throw invalidRequest(`unknown feed ${feed}; built-in feeds: earshot:feed:recent, earshot:feed:following, earshot:feed:user:<did-or-handle>`);
  switch (source.kind) {
    case 'recent':
      return { kind: 'everyone' };
    case 'following':
      if (!viewer) throw authMissing('the following feed needs authentication');
      return { kind: 'followedBy', userId: viewer.userId };
    case 'user':
      return { kind: 'user', userId: (await userFromActorParam(db, source.actor)).id };
  }
}

/** A page of the feed's scrobbles, newest first. */
export async function feedPage(db: Database, viewer: Viewer | null, feed: string, page: FeedPageRequest): Promise<ScrobblePage> {
  return scrobblePage(db, viewer?.userId ?? null, await feedScope(db, viewer, feed), page);
}

/** Who in the feed is listening now, newest first. */
export async function feedNowPlaying(db: Database, viewer: Viewer | null, feed: string, limit: number): Promise<NowPlayingView[]> {
  return nowPlayingIn(db, await feedScope(db, viewer, feed), limit);
}

/** A page of one user's scrobbles (`actor`: their DID or handle), newest first. */
export async function actorScrobbles(db: Database, viewerId: string | null, actor: string, page: FeedPageRequest): Promise<ScrobblePage> {
  const user = await userFromActorParam(db, actor);
  return scrobblePage(db, viewerId, { kind: 'user', userId: user.id }, page);
}
