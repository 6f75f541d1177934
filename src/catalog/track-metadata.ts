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

export function spotifyTrackUrl(spotifyId: string): string {
  return `https://open.spotify.com/track/${encodeURIComponent(spotifyId)}`;
}
