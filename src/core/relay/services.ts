import type { RelayTargetsTable } from '../../toolkit/db/schema.ts';
import type { Selectable } from 'kysely';
import type { AppContext } from '../context.ts';
import { lastfmService } from '../providers/lastfm/client.ts';
import { listenbrainzService } from '../providers/listenbrainz/client.ts';
import { malojaService } from '../providers/maloja/client.ts';
import type { RelayPlay, ScrobbleService } from '../providers/scrobble-service.ts';
import { openTargetSecret } from './targets.ts';

export type TargetRow = Selectable<RelayTargetsTable>;

/** Why a target cannot be reached at all: its play deliveries are refused with this until the user fixes it. */
export class TargetUnusable extends Error {}

/** The client for a target, with its secret opened; another Earshot is reached over its ListenBrainz API. */
export function serviceFor(ctx: AppContext, target: TargetRow): ScrobbleService {
  const secret = target.secret_sealed && openTargetSecret(ctx, target.user_id, target.id, target.secret_sealed);
  if (!secret) throw new TargetUnusable('the stored credential does not open on this server (EARSHOT_SECRET changed?): add the target again');
  switch (target.kind) {
    case 'lastfm': {
      if (!ctx.config.relay.lastfm) throw new TargetUnusable('this server has no Last.fm application any more (LASTFM_RELAY_API_KEY)');
      return lastfmService(ctx.config.relay.lastfm, secret);
    }
    case 'maloja':
      return malojaService(target.base_url!, secret);
    case 'listenbrainz':
    case 'earshot':
      return listenbrainzService(target.base_url!, secret);
  }
}

/** A queued payload (outbox.ts) as the clients take it. */
export function relayPlay(payload: Record<string, unknown>): RelayPlay {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  return {
    artist: String(payload.artist),
    title: String(payload.title),
    album: text(payload.album),
    durationMs: typeof payload.durationMs === 'number' ? payload.durationMs : null,
    mbid: text(payload.mbid),
    listenedAt: new Date(String(payload.listenedAt)),
  };
}
