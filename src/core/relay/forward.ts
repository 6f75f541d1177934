import { runDetached } from '../../toolkit/background.ts';
import type { AppContext } from '../context.ts';
import type { RelayPlay, ScrobbleService } from '../providers/scrobble-service.ts';
import { serviceFor } from './services.ts';

/** A committed change of a user's love for a song (catalog/likes.ts): what forwardLove tells the targets. */
export interface LoveChange {
  trackId: string;
  loved: boolean;
}

type Song = Omit<RelayPlay, 'listenedAt'>;

/**
 * Tells each of the user's linked targets something about a song, best-effort: no outbox (a
 * now-playing is stale in minutes, a love is the user's to repeat), one try, after the client has
 * its answer. `tell` answers undefined for a target whose protocol has no such call. A failure is
 * logged with the target's message only, which never carries the credential.
 */
function forwardToTargets(
  ctx: AppContext,
  userId: string,
  what: string,
  trackId: string,
  tell: (service: ScrobbleService, song: Song) => Promise<void> | undefined,
) {
  runDetached(`Relay ${what}`, async () => {
    const targets = await ctx.db.selectFrom('relay_targets').selectAll().where('user_id', '=', userId).where('secret_sealed', 'is not', null).execute();
    if (targets.length === 0) return undefined;
    const track = await ctx.db.selectFrom('tracks').select(['artist', 'title', 'album', 'duration', 'mbid']).where('id', '=', trackId).executeTakeFirst();
    if (!track) return undefined;
    const song = { artist: track.artist, title: track.title, album: track.album, durationMs: track.duration, mbid: track.mbid };
    const failures = await Promise.all(
      targets.map((target) =>
        Promise.resolve()
          .then(() => tell(serviceFor(ctx, target), song))
          .then(
            () => null,
            (error: unknown) => `${target.name}: ${error instanceof Error ? error.message : String(error)}`,
          ),
      ),
    );
    const failed = failures.filter((failure) => failure !== null);
    return failed.length > 0 ? `${what} not forwarded to ${failed.join('; ')}` : undefined;
  });
}

/** What the user is playing now, to every target that keeps a now-playing (not Maloja). */
export function forwardNowPlaying(ctx: AppContext, userId: string, trackId: string): void {
  forwardToTargets(ctx, userId, 'now playing', trackId, (service, song) => service.nowPlaying?.(song));
}

/**
 * Loves and unloves, once committed, to every target with love (Last.fm's track.love and
 * track.unlove; ListenBrainz feedback, for songs whose recording MBID is known; not Maloja). A
 * null is a like that changed nothing (liked again), which is no event.
 */
export function forwardLove(ctx: AppContext, userId: string, changes: readonly (LoveChange | null)[]): void {
  for (const change of changes) {
    if (change) forwardToTargets(ctx, userId, change.loved ? 'love' : 'unlove', change.trackId, (service, song) => service.love?.(song, change.loved));
  }
}
