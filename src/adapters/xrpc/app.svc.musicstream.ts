/**
 * The `app.svc.musicstream` group: the caller's streaming-service player, through their
 * connected account. Every failure is a provider failure with its own status.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import type { XrpcErrorName } from '../../toolkit/errors.ts';
import { commandPlayer, currentlyPlaying, type PlayerCommand } from '../../core/musicstream/remote-player.ts';

/** What any call through the caller's connection may answer, beyond the generic errors. */
const PROVIDER_ERRORS: readonly XrpcErrorName[] = [
  'ProviderNotConfigured',
  'NotConnected',
  'ConnectionBroken',
  'RateLimitExceeded',
  'ProviderUnavailable',
  'ProviderRefused',
];

/** pause, play, next and previous: the same call, sending `command` to the caller's active device. */
function playerCommand<N extends string>(nsid: N, command: PlayerCommand, summary: string) {
  return defineProcedure({
    nsid,
    summary: `${summary}; no body. NoActiveDevice (409) when no device is playing`,
    auth: 'account',
    output: Type.Object({ success: Type.Literal(true) }),
    errors: [...PROVIDER_ERRORS, 'NoActiveDevice'],
    handler: async ({ viewer, ctx }) => {
      await commandPlayer(ctx, viewer.userId, command);
      return { success: true as const };
    },
  });
}

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
    const playing = await currentlyPlaying(ctx, viewer.userId);
    const track = playing?.track;
    return {
      isPlaying: playing?.isPlaying ?? false,
      progressMs: playing?.progressMs ?? null,
      track: track
        ? {
            title: track.title,
            artists: track.artists,
            album: track.album ?? null,
            durationMs: track.durationMs ?? null,
            isrc: track.isrc ?? null,
            url: track.url ?? null,
            artUrl: track.artUrl ?? null,
          }
        : null,
      device: playing?.device ?? null,
    };
  },
});

export const musicstreamOperations = [
  playerCommand('app.svc.musicstream.pause', 'pause', "Pause the track playing on the caller's active streaming device"),
  playerCommand('app.svc.musicstream.play', 'play', "Resume playback on the caller's active streaming device"),
  playerCommand('app.svc.musicstream.next', 'next', "Skip to the next track on the caller's active streaming device"),
  playerCommand('app.svc.musicstream.previous', 'previous', "Go back to the previous track on the caller's active streaming device"),
  getCurrentlyPlaying,
];
