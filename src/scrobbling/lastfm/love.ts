import type { Database } from '../../db/index.ts';
import { resolveTrack } from '../../catalog/resolve.ts';
import { invalidParameters } from './errors.ts';
import { defineMethod } from './method.ts';
import type { Params } from './params.ts';
import { trackMetadata } from './track-params.ts';

/** A loved track is a star on the catalog song, like the library's own stars. */
export async function starSong(db: Pick<Database, 'insertInto'>, userId: string, trackId: string): Promise<void> {
  await db
    .insertInto('stars')
    .values({ user_id: userId, subject_kind: 'song', subject_id: trackId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

function lovedTrack(params: Params) {
  const metadata = trackMetadata(params);
  if (!metadata.artist.trim() || !metadata.title.trim()) throw invalidParameters('artist and track must not be empty');
  return metadata;
}

export const love = defineMethod({
  name: 'track.love',
  postOnly: true,
  auth: 'session',
  async handler({ ctx, params, session }) {
    const metadata = lovedTrack(params);
    await ctx.db.transaction().execute(async (tx) => {
      const track = await resolveTrack(tx, metadata, ctx.config.unmatchedScrobbles === 'store');
      if (!track) throw invalidParameters('Track not found');
      await starSong(tx, session.userId, track.trackId);
    });
    return null;
  },
});

export const unlove = defineMethod({
  name: 'track.unlove',
  postOnly: true,
  auth: 'session',
  async handler({ ctx, params, session }) {
    const metadata = lovedTrack(params);
    await ctx.db.transaction().execute(async (tx) => {
      const track = await resolveTrack(tx, metadata, false);
      if (!track) return;
      await tx
        .deleteFrom('stars')
        .where('user_id', '=', session.userId)
        .where('subject_kind', '=', 'song')
        .where('subject_id', '=', track.trackId)
        .execute();
    });
    return null;
  },
});
