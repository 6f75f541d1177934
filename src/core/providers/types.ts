/**
 * What Earshot needs from each kind of provider. One client module per provider speaks that
 * provider's real HTTP API behind one of these interfaces (providers/<name>/client.ts); the
 * registry (registry.ts) hands out the configured ones. Clients take an access token and never
 * see the database: connections.ts keeps tokens, refreshes them and retries a 401 once.
 */
import type { ProviderConfig, ProviderName } from '../../toolkit/config.ts';

export type { ProviderConfig, ProviderName };

/** What a token endpoint grants (RFC 6749 §5.1), with the expiry made absolute. */
export interface TokenSet {
  accessToken: string;
  /** Absent when the provider did not send a new one (keep the old). */
  refreshToken?: string | undefined;
  expiresAt?: Date | undefined;
  scope?: string | undefined;
}

/** The provider's account behind a grant, as getConnections shows it. */
export interface ProviderAccount {
  id: string;
  name: string;
}

/** How a provider's authorization step differs from plain OAuth 2.0 (RFC 6749 + RFC 7636). */
export interface OAuthSettings {
  scopes: readonly string[];
  /** Whether the provider takes a PKCE code challenge (S256). */
  pkce: boolean;
  /** Extra authorize-URL parameters (e.g. to be given a refresh token). */
  authorizeParams?: Readonly<Record<string, string>>;
}

/** Every provider: connects over OAuth and names the account behind a token. */
export interface ProviderClient {
  readonly name: ProviderName;
  readonly kind: 'filehost' | 'streaming';
  readonly oauth: OAuthSettings;
  account(accessToken: string): Promise<ProviderAccount>;
}

// ---- cloud file hosts ----

/** A folder or file under the mirrored folder, as the provider lists it. */
export interface RemoteEntry {
  kind: 'folder' | 'file';
  /** The provider's own id. */
  id: string;
  /** Relative to the mirrored folder, '/'-separated, in the provider's display case; '' is the folder itself. */
  path: string;
  name: string;
  /** Files only. */
  size?: number | undefined;
  /** Files only: what a sync compares to decide whether to read the tags again. */
  modifiedAt?: Date | undefined;
  clientModified?: Date | undefined;
  serverModified?: Date | undefined;
}

/** A change after a cursor: an entry added or changed, or a path that is gone (with everything below it). */
export type RemoteChange = RemoteEntry | { kind: 'removed'; path: string };

/** The relative path of a mirrored folder or file by its provider id, or null when none is mirrored. */
export type PathLookup = (providerId: string) => Promise<string | null>;

export interface FileHostClient extends ProviderClient {
  readonly kind: 'filehost';
  /**
   * Every folder and file under `rootPath` (a provider path such as '/Music'), parents before
   * children, with a cursor for the changes after this listing. A missing folder is ProviderError 'FolderNotFound'.
   */
  listTree(accessToken: string, rootPath: string): Promise<{ rootId: string; entries: RemoteEntry[]; cursor: string }>;
  /** What changed under `rootPath` since `cursor`; 'reset' when the cursor is no longer valid (list again). */
  changes(accessToken: string, rootPath: string, cursor: string, lookup: PathLookup): Promise<{ changes: RemoteChange[]; cursor: string } | 'reset'>;
  /**
   * The file's bytes, whole or the byte range of an HTTP Range header value; the Response's
   * status (200, 206, 416) and headers are the provider's, its body streams.
   */
  download(accessToken: string, file: { id: string; path: string }, rootPath: string, range?: string): Promise<Response>;
}

// ---- the streaming service ----

export interface StreamedTrack {
  /** The service's id of the track: what pairs a listed play with the one seen playing (musicstream/observed-plays.ts). */
  id?: string | undefined;
  title: string;
  artists: string[];
  album?: string | undefined;
  albumArtist?: string | undefined;
  durationMs?: number | undefined;
  isrc?: string | undefined;
  trackNumber?: number | undefined;
  discNumber?: number | undefined;
  /** The track's page at the provider. */
  url?: string | undefined;
  artUrl?: string | undefined;
}

export interface CurrentlyPlaying {
  isPlaying: boolean;
  progressMs: number | null;
  /** null when nothing (or something other than a track, an ad) is playing. */
  track: StreamedTrack | null;
  device: string | null;
}

export interface RecentPlay {
  track: StreamedTrack;
  playedAt: Date;
}

export interface StreamingClient extends ProviderClient {
  readonly kind: 'streaming';
  pause(accessToken: string): Promise<void>;
  play(accessToken: string): Promise<void>;
  next(accessToken: string): Promise<void>;
  previous(accessToken: string): Promise<void>;
  /** null when nothing is playing (the provider's 204). */
  currentlyPlaying(accessToken: string): Promise<CurrentlyPlaying | null>;
  /** Plays after `cursor` (null: the provider's latest), oldest first, and the cursor to ask with next time. */
  recentlyPlayed(accessToken: string, cursor: string | null): Promise<{ plays: RecentPlay[]; cursor: string | null }>;
}

export type AnyProviderClient = FileHostClient | StreamingClient;

// ---- metadata services: read without an account, so no OAuth and no token ----

/** A genre or tag and how many MusicBrainz editors gave it. */
export interface VotedName {
  name: string;
  count: number;
}

export interface CreditedArtist {
  mbid: string;
  name: string;
}

/** A MusicBrainz recording, release or artist with what enrichment reads of it. */
export interface MetadataEntity {
  mbid: string;
  /** The title, or an artist's name. */
  title: string;
  /** The search's relevance, 0–100; 100 for a lookup by MBID. */
  score: number;
  artists: CreditedArtist[];
  /** A recording's releases; empty for others. */
  releases: { mbid: string; title: string }[];
  /** Genres when MusicBrainz has any, else its tags, most voted first. */
  genres: VotedName[];
}

export type MetadataEntityKind = 'recording' | 'release' | 'artist';

export interface MusicBrainzClient {
  readonly name: 'musicbrainz';
  /** Best matches first; `artist` and `title` are searched as phrases. Artists are not searched (a name alone matches too loosely). */
  search(kind: 'recording' | 'release', artist: string, title: string): Promise<MetadataEntity[]>;
  /** null when MusicBrainz has no such entity. */
  lookup(kind: MetadataEntityKind, mbid: string): Promise<MetadataEntity | null>;
}

export interface CoverImage {
  contentType: string;
  data: Buffer;
}

export interface CoverArtClient {
  readonly name: 'coverart';
  /** The release's front cover (250 px), or null when it has none. */
  frontCover(releaseMbid: string): Promise<CoverImage | null>;
}

/** An artist's picture at Deezer, and which Deezer artist it is of. */
export interface ArtistImage extends CoverImage {
  deezerId: string;
}

export interface DeezerClient {
  readonly name: 'deezer';
  /**
   * The picture of the Deezer artist whose name has the same key as `name` under `nameKey` (the
   * catalog's folding: an exact match, never a near one); null when no artist matches or the one
   * that does has no picture.
   */
  artistImage(name: string, nameKey: (name: string) => string): Promise<ArtistImage | null>;
}
