/**
 * The `app.svc.musicstream` group: the caller's streaming-service player, through their
 * connected account. Every failure is a provider failure with its own status (errors.ts).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../../adapters/http/operation.ts';
import type { XrpcErrorName } from '../../toolkit/errors.ts';
import type { AppContext } from '../context.ts';
import { withAccessToken } from '../providers/connections.ts';
import { asXrpcProviderCall } from '../providers/errors.ts';
import { providerClient } from '../providers/registry.ts';
import type { StreamingClient } from '../providers/types.ts';

/** What any call through the caller's connection may answer, beyond the generic errors. */
const PROVIDER_ERRORS: readonly XrpcErrorName[] = ['ProviderNotConfigured', 'NotConnected', 'ConnectionBroken', 'RateLimitExceeded', 'ProviderUnavailable', 'ProviderRefused'];

/** Runs `call` with the service's client and the caller's access token; not configured is answered before the connection is looked up. */
function withMusicstream<T>(ctx: AppContext, userId: string, call: (client: StreamingClient, accessToken: string) => Promise<T>): Promise<T> {
  return asXrpcProviderCall(() => {
    const client = providerClient(ctx.config, 'musicstream');
    return withAccessToken(ctx, userId, 'musicstream', (token) => call(client, token));
  });
}

const PLAYER_COMMANDS = [
  { verb: 'pause', summary: "Pause the track playing on the caller's active streaming device" },
  { verb: 'play', summary: "Resume playback on the caller's active streaming device" },
  { verb: 'next', summary: "Skip to the next track on the caller's active streaming device" },
  { verb: 'previous', summary: "Go back to the previous track on the caller's active streaming device" },
] as const satisfies readonly { verb: keyof StreamingClient & ('pause' | 'play' | 'next' | 'previous'); summary: string }[];

const playerCommands = PLAYER_COMMANDS.map(({ verb, summary }) =>
  defineProcedure({
    nsid: `app.svc.musicstream.${verb}`,
    summary: `${summary}; no body. NoActiveDevice (409) when no device is playing`,
    auth: 'account',
    output: Type.Object({ success: Type.Literal(true) }),
    errors: [...PROVIDER_ERRORS, 'NoActiveDevice'],
    handler: async ({ viewer, ctx }) => {
      await withMusicstream(ctx, viewer.userId, (client, token) => client[verb](token));
      return { success: true as const };
    },
  }),
);

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const StreamedTrackView = Type.Object({
  title: Type.String(),
  artists: Type.Array(Type.String()),
  album: Nullable(Type.String()),
  durationMs: Nullable(Type.Integer()),
  isrc: Nullable(Type.String()),
  url: Nullable(Type.String({ description: "the track's page at the service" })),
  artUrl: Nullable(Type.String()),
});

const getCurrentlyPlaying = defineQuery({
  nsid: 'app.svc.musicstream.getCurrentlyPlaying',
  summary: "What the caller's streaming account is playing: track null when nothing (or something other than a track) plays",
  auth: 'account',
  output: Type.Object({
    isPlaying: Type.Boolean(),
    progressMs: Nullable(Type.Integer()),
    track: Nullable(StreamedTrackView),
    device: Nullable(Type.String()),
  }),
  errors: PROVIDER_ERRORS,
  handler: async ({ viewer, ctx }) => {
    const playing = await withMusicstream(ctx, viewer.userId, (client, token) => client.currentlyPlaying(token));
    const track = playing?.track;
    return {
      isPlaying: playing?.isPlaying ?? false,
      progressMs: playing?.progressMs ?? null,
      track: track
        ? { title: track.title, artists: track.artists, album: track.album ?? null, durationMs: track.durationMs ?? null, isrc: track.isrc ?? null, url: track.url ?? null, artUrl: track.artUrl ?? null }
        : null,
      device: playing?.device ?? null,
    };
  },
});

export const musicstreamOperations = [...playerCommands, getCurrentlyPlaying];
