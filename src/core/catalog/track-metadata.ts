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
  /** Fields only a library file's tags carry; no scrobble protocol sends them. */
  composer?: string | undefined;
  label?: string | undefined;
  bpm?: number | undefined;
  /** Musical key, e.g. "Am". */
  key?: string | undefined;
  lyrics?: string | undefined;
  /** Release year; kept on the album. */
  year?: number | undefined;
}

/** Written without flags, so `.source` serves as a JSON Schema pattern too. */
export const MBID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const ISRC = /^[A-Za-z]{2}[A-Za-z0-9]{3}\d{7}$/;
/** A Spotify track id: 22 base-62 characters. */
export const SPOTIFY_ID = /^[A-Za-z0-9]{22}$/;

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

/**
 * Several artists as one credit the matcher reads as its first artist featuring the rest, so the
 * song files under its main artist while the display keeps everyone ('' for none). File tags and
 * the streaming service's plays both credit this way.
 */
export function artistCredit(artists: readonly string[]): string {
  const names = artists.map((name) => name.trim()).filter(Boolean);
  return names.length > 1 ? `${names[0]} feat. ${names.slice(1).join(', ')}` : (names[0] ?? '');
}
