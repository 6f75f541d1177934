import { runDetached } from '../../toolkit/background.ts';
import type { AppContext } from '../context.ts';
import { serviceFor } from './services.ts';

/**
 * Tells each of the user's targets what is playing now, best-effort: no outbox (a now-playing is
 * stale in minutes), one try, after the client has its answer. A failure is logged with the
 * target's message only, which never carries the credential.
 */
export function forwardNowPlaying(ctx: AppContext, userId: string, trackId: string): void {
  runDetached('Relay now playing', async () => {
    const targets = await ctx.db.selectFrom('relay_targets').selectAll().where('user_id', '=', userId).where('secret_sealed', 'is not', null).execute();
    if (targets.length === 0) return undefined;
    const track = await ctx.db.selectFrom('tracks').select(['artist', 'title', 'album', 'duration', 'mbid']).where('id', '=', trackId).executeTakeFirst();
    if (!track) return undefined;
    const play = { artist: track.artist, title: track.title, album: track.album, durationMs: track.duration, mbid: track.mbid };
    const failures = await Promise.all(
      targets.map((target) =>
        Promise.resolve()
          .then(() => serviceFor(ctx, target).nowPlaying?.(play))
          .then(
            () => null,
            (error: unknown) => `${target.name}: ${error instanceof Error ? error.message : String(error)}`,
          ),
      ),
    );
    const failed = failures.filter((failure) => failure !== null);
    return failed.length > 0 ? `now playing not forwarded to ${failed.join('; ')}` : undefined;
  });
}
