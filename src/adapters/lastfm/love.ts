import { likeSong, unlikeSong } from '../../core/catalog/index.ts';
import { resolveTrack } from '../../core/catalog/resolve.ts';
import { forwardLove } from '../../core/relay/forward.ts';
import { inTransaction } from '../../toolkit/db/index.ts';
import { invalidParameters } from './errors.ts';
import { defineMethod } from './method.ts';
import type { Params } from './params.ts';
import { trackMetadata } from './track-params.ts';

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
    const change = await inTransaction(ctx.db, async (tx) => {
      const track = await resolveTrack(tx, metadata, ctx.config.unmatchedScrobbles === 'store');
      if (!track) throw invalidParameters('Track not found');
      // A loved track is a liked catalog song, the same star the API's likeSong sets.
      return likeSong(tx, session.userId, track.trackId);
    });
    forwardLove(ctx, session.userId, [change]);
    return null;
  },
});

export const unlove = defineMethod({
  name: 'track.unlove',
  postOnly: true,
  auth: 'session',
  async handler({ ctx, params, session }) {
    const metadata = lovedTrack(params);
    const change = await inTransaction(ctx.db, async (tx) => {
      const track = await resolveTrack(tx, metadata, false);
      return track && unlikeSong(tx, session.userId, track.trackId);
    });
    forwardLove(ctx, session.userId, [change]);
    return null;
  },
});
