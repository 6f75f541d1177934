/**
 * Scrobbling services plays are relayed out to (core/relay): one client per protocol
 * (providers/listenbrainz, providers/lastfm, providers/maloja), each over the service's real HTTP
 * API at a base URL the caller gives, every request through providerFetch. A call that fails
 * whole throws ProviderError (or AccessTokenRefused for a refused credential).
 */

/** A play as it is sent out: the catalog's names for it. */
export interface RelayPlay {
  artist: string;
  title: string;
  album?: string | null | undefined;
  durationMs?: number | null | undefined;
  /** The recording's MusicBrainz id, when known. */
  mbid?: string | null | undefined;
  listenedAt: Date;
}

export interface ScrobbleService {
  /** The most plays one scrobble call may carry. */
  readonly maxBatch: number;
  /**
   * Submits up to maxBatch plays. Each answer is null when the service took the play (or already
   * had it), else the service's reason for refusing that one play.
   */
  scrobble(plays: readonly RelayPlay[]): Promise<(string | null)[]>;
  /** Absent when the protocol keeps no now-playing (Maloja). */
  nowPlaying?(play: Omit<RelayPlay, 'listenedAt'>): Promise<void>;
  /** Absent when the protocol has no love (Maloja). */
  love?(play: Omit<RelayPlay, 'listenedAt'>, loved: boolean): Promise<void>;
  /**
   * Deletes a play sent before (as it was sent). Null when it is gone, whether this deleted it or
   * the service had it no more, else the service's reason for refusing. Absent when the protocol
   * deletes nothing (Last.fm).
   */
  deleteScrobble?(play: RelayPlay): Promise<string | null>;
}
