/** What a feed URI selects. */
export type FeedSource = { kind: 'recent' } | { kind: 'following' } | { kind: 'user'; actor: string };

export const RECENT_FEED = 'earshot:feed:recent';
export const FOLLOWING_FEED = 'earshot:feed:following';
const USER_FEED_PREFIX = 'earshot:feed:user:';

/** The built-in feeds; null for any other URI. */
export function parseFeedUri(uri: string): FeedSource | null {
  if (uri === RECENT_FEED) return { kind: 'recent' };
  if (uri === FOLLOWING_FEED) return { kind: 'following' };
  if (uri.startsWith(USER_FEED_PREFIX) && uri.length > USER_FEED_PREFIX.length) {
    return { kind: 'user', actor: uri.slice(USER_FEED_PREFIX.length) };
  }
  return null;
}
