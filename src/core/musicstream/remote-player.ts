/**
 * The caller's streaming-service player, through their connected account. Every failure is a
 * provider failure answered with its own status (providers/errors.ts).
 */
import type { AppContext } from '../context.ts';
import { withAccessToken } from '../providers/connections.ts';
import { asXrpcProviderCall } from '../providers/errors.ts';
import { providerClient } from '../providers/registry.ts';
import type { CurrentlyPlaying, StreamingClient } from '../providers/types.ts';

export type PlayerCommand = keyof StreamingClient & ('pause' | 'play' | 'next' | 'previous');

/** Runs `call` with the service's client and the caller's access token; not configured is answered before the connection is looked up. */
function withMusicstream<T>(ctx: AppContext, userId: string, call: (client: StreamingClient, accessToken: string) => Promise<T>): Promise<T> {
  return asXrpcProviderCall(() => {
    const client = providerClient(ctx.config, 'musicstream');
    return withAccessToken(ctx, userId, 'musicstream', (token) => call(client, token));
  });
}

/** Sends the command to the user's active streaming device. */
export function commandPlayer(ctx: AppContext, userId: string, command: PlayerCommand): Promise<void> {
  return withMusicstream(ctx, userId, (client, token) => client[command](token));
}

/** What the user's streaming account is playing; null when nothing is. */
export function currentlyPlaying(ctx: AppContext, userId: string): Promise<CurrentlyPlaying | null> {
  return withMusicstream(ctx, userId, (client, token) => client.currentlyPlaying(token));
}
