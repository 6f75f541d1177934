/** What a client knows about a track, normalized from any submission protocol. */
export interface TrackMetadata {
  artist: string;
  title: string;
  album?: string | undefined;
  albumArtist?: string | undefined;
  /** Milliseconds. */
  durationMs?: number | undefined;
  trackNumber?: number | undefined;
  discNumber?: number | undefined;
  /** MusicBrainz recording id. */
  mbid?: string | undefined;
  artistMbid?: string | undefined;
  /** MusicBrainz release id. */
  albumMbid?: string | undefined;
  isrc?: string | undefined;
  spotifyId?: string | undefined;
  tags?: string[] | undefined;
  genre?: string | undefined;
  albumArt?: string | undefined;
}

const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISRC = /^[A-Za-z]{2}[A-Za-z0-9]{3}\d{7}$/;

/** A MusicBrainz id as the catalog keeps it (trimmed, lowercase); undefined for anything that is not one. */
export function mbidOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && MBID.test(value.trim()) ? value.trim().toLowerCase() : undefined;
}

/** An ISRC as the catalog keeps it (trimmed, uppercase); undefined for anything that is not one. */
export function isrcOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && ISRC.test(value.trim()) ? value.trim().toUpperCase() : undefined;
}

export function spotifyTrackUrl(spotifyId: string): string {
  return `https://open.spotify.com/track/${encodeURIComponent(spotifyId)}`;
}
