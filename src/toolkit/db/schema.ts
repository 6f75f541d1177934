import type { ColumnType, Generated } from 'kysely';

/** A timestamp: read as a Date, written as a Date or ISO string. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** Computed by the database; never written. */
type Computed<T> = ColumnType<T, never, never>;
type Json = ColumnType<Record<string, unknown>, string | undefined, string>;
type TextArray = ColumnType<string[], string[] | undefined, string[]>;

export interface UsersTable {
  id: Generated<string>;
  did: string;
  handle: string;
  display_name: string | null;
  avatar: string | null;
  timezone: Generated<string>;
  password_hash: string | null;
  /** May edit the shared catalog (migration 0009); the first account is one. */
  admin: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface FollowsTable {
  user_id: string;
  subject_id: string;
  created_at: CreatedAt;
}

export interface ArtistsTable {
  id: Generated<string>;
  name: string;
  name_key: string;
  mbid: string | null;
  picture: string | null;
  genres: TextArray;
  uri: Computed<string>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface AlbumsTable {
  id: Generated<string>;
  title: string;
  title_key: string;
  artist: string;
  artist_id: string | null;
  album_art: string | null;
  mbid: string | null;
  release_date: string | null;
  year: number | null;
  genre: string | null;
  label: string | null;
  uri: Computed<string>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface TracksTable {
  id: Generated<string>;
  title: string;
  title_key: string;
  artist: string;
  artist_id: string | null;
  album: string | null;
  album_id: string | null;
  album_artist: string | null;
  album_art: string | null;
  duration: number | null;
  track_number: number | null;
  disc_number: number | null;
  mbid: string | null;
  isrc: string | null;
  sha256: string | null;
  acoustid_fingerprint: string | null;
  tags: TextArray;
  streaming_link_a: string | null;
  video_link: string | null;
  streaming_link_b: string | null;
  streaming_link_c: string | null;
  lyrics: string | null;
  composer: string | null;
  genre: string | null;
  label: string | null;
  copyright_message: string | null;
  key: string | null;
  bpm: number | null;
  db_version: Generated<number>;
  uri: Computed<string>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface ScrobblesTable {
  id: Generated<string>;
  user_id: string;
  track_id: string;
  listened_at: Timestamp;
  submitted: Json;
  source: Generated<string>;
  created_at: CreatedAt;
  /** When the user last corrected the play's time or song; null as submitted (migration 0011). */
  edited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The relay target at the service a sync brought the play in from (core/sync); never relayed back there (migration 0024). */
  origin_target: string | null;
  /** How long the play lasted, where the client said (migration 0027); null: unknown. */
  played_ms: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A change to scrobbles the statistics' fold has not taken yet (migration 0012). */
export interface StatsQueueTable {
  user_id: string;
  track_id: string;
  listened_at: Timestamp;
  delta: number;
  /** The play's played_ms (migration 0027). */
  played_ms: ColumnType<number | null, number | null | undefined, number | null>;
  /** Whether the all-time totals count it already (migration 0036). */
  totalled: Generated<boolean>;
}

/** How many stats_queue rows each user with any has (migration 0020): readers skip the queue for everyone else. */
export interface StatsQueueUsersTable {
  user_id: string;
  /** bigint: read as a string. */
  queued: ColumnType<string, number | bigint | string, number | bigint | string>;
  /** The earliest and latest listened_at of the user's queued rows, or wider (migration 0031). */
  first_at: Timestamp;
  last_at: Timestamp;
  /** Whether the user's queued rows may include plays leaving (delta < 0; migration 0034). */
  leaving: Generated<boolean>;
  /** How many of them the all-time totals count already (migration 0036; bigint: read as a string). */
  totalled: ColumnType<string, number | bigint | string | undefined, number | bigint | string>;
}

export type StatsGrain = 'y' | 'm' | 'd';

/** Plays per user, track and UTC year, month or day (migration 0012). */
export interface StatsTrackCountsTable {
  user_id: string;
  grain: StatsGrain;
  period_start: Timestamp;
  track_id: string;
  plays: number;
  /** Of those plays, how many have a played_ms, and its sum (migration 0027; bigint, read as a string). */
  measured: Generated<number>;
  played_ms: ColumnType<string, number | bigint | string | undefined, number | bigint | string>;
}

/** Plays per user and UTC hour, by quarter hour (migration 0012). */
export interface StatsHoursTable {
  user_id: string;
  hour: Timestamp;
  q0: number;
  q1: number;
  q2: number;
  q3: number;
}

/** Plays per user and UTC day up to each quarter hour: upto[i - 1] the plays in its first i quarters (migration 0033). */
export interface StatsDaysTable {
  user_id: string;
  day: Timestamp;
  upto: number[];
}

/** All-time plays per user and track (migration 0021), folded like the other rollups; indexed per user in play order (0029). */
export interface StatsTrackTotalsTable {
  user_id: string;
  track_id: string;
  plays: number;
}

/** Everyone's all-time plays per track (migration 0021), the sum of stats_track_totals kept by triggers. */
export interface StatsCatalogPlaysTable {
  track_id: string;
  plays: number;
}

/** All-time plays per user and artist (migration 0023), folded by the artists stats_track_groups names; indexed per user in play order (0029). */
export interface StatsArtistTotalsTable {
  user_id: string;
  artist_id: string;
  plays: number;
}

/** All-time plays per user and album (migration 0023), folded by the albums stats_track_groups names; indexed per user in play order (0029). */
export interface StatsAlbumTotalsTable {
  user_id: string;
  album_id: string;
  plays: number;
}

/** The artist, album, genre and duration each track's folded plays are counted under (migrations 0023, 0032). */
export interface StatsTrackGroupsTable {
  track_id: string;
  artist_id: string | null;
  album_id: string | null;
  /** The track's own genre, else its album's. */
  genre: string | null;
  duration: number | null;
}

/** What a year's or a month's folded plays add up to per artist, album, genre and in all (migrations 0032, 0035). */
export type StatsGroupDim = 'a' | 'l' | 'g' | 't';

/** The grains group counts are kept in: UTC years and months (migration 0035). */
export type StatsGroupGrain = Exclude<StatsGrain, 'd'>;

/**
 * A UTC year's or month's plays per user and artist ('a'), album ('l'), genre ('g') or in all ('t',
 * key ''), with their listening time (migrations 0032, 0035).
 */
export interface StatsGroupCountsTable {
  user_id: string;
  grain: StatsGroupGrain;
  period_start: Timestamp;
  dim: StatsGroupDim;
  key: string;
  plays: number;
  measured: number;
  /** bigint: read as a string. */
  played_ms: ColumnType<string, number | bigint | string, number | bigint | string>;
  /** The durations of the plays without a played time (bigint: read as a string). */
  unmeasured_ms: ColumnType<string, number | bigint | string, number | bigint | string>;
}

/** Tracks re-pointed to another artist or album since the fold last regrouped them (migration 0023). */
export interface StatsRegroupTable {
  track_id: string;
}

export interface NowPlayingTable {
  user_id: string;
  track_id: string;
  submitted: Json;
  started_at: CreatedAt;
  expires_at: Timestamp;
}

export type StarKind = 'song' | 'album' | 'artist';

export interface StarsTable {
  user_id: string;
  subject_kind: StarKind;
  subject_id: string;
  created_at: CreatedAt;
}

/** ListenBrainz latest-import: the newest imported listen per user and service, unix seconds. */
export interface LbLatestImportsTable {
  user_id: string;
  service: string;
  latest_import: ColumnType<string | number, number, number>;
  updated_at: CreatedAt;
}

/** ListenBrainz "hate" feedback on a song; "love" is a `stars` row. */
export interface SongDislikesTable {
  user_id: string;
  track_id: string;
  created_at: CreatedAt;
}

export interface PlaylistsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  comment: string | null;
  public: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface PlaylistItemsTable {
  playlist_id: string;
  user_id: string;
  position: number;
  track_id: string;
  added_at: CreatedAt;
}

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  description: Generated<string>;
  key_hash: string;
  /** md5 of the key for Audioscrobbler 1.2 handshakes, sealed with AES-256-GCM (auth/audioscrobbler-digest.ts). */
  audioscrobbler_digest: ColumnType<string | null, string | null | undefined, string | null>;
  /** The access token that created this key, which takes the key with it when revoked (migration 0004). */
  created_by_token_id: ColumnType<string | null, string | null | undefined, never>;
  /** The key itself, sealed (auth/encryption.ts), for Subsonic token authentication; null for keys made before migration 0006. */
  subsonic_key: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
  last_used_at: Timestamp | null;
}

export interface AccessTokensTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  token_hash: string;
  last_four: string;
  /** The access token that created this one, which takes it along when revoked (migration 0004). */
  created_by_token_id: ColumnType<string | null, string | null | undefined, never>;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
}

export interface QueueItemsTable {
  user_id: string;
  position: number;
  track_id: string;
  added_at: CreatedAt;
}

export interface ProviderAccountsTable {
  user_id: string;
  provider: string;
  account_id: string | null;
  access_token_encrypted: string | null;
  refresh_token_encrypted: string | null;
  expires_at: Timestamp | null;
  account_name: string | null;
  scope: string | null;
  status: ColumnType<ProviderAccountStatus, ProviderAccountStatus | undefined, ProviderAccountStatus>;
  status_reason: string | null;
  poll_cursor: string | null;
  poll_lease_until: Timestamp | null;
  last_polled_at: Timestamp | null;
  last_poll_error: string | null;
  /** The streaming poller's observed plays (migration 0030; core/musicstream/observed-plays.ts). */
  poll_observed: ColumnType<unknown[], string | undefined, string>;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export type ProviderAccountStatus = 'connected' | 'broken';

/** An OAuth authorization in flight (migration 0007): single-use, expiring, bound to its user. */
export interface OauthStatesTable {
  nonce: string;
  user_id: string;
  provider: string;
  code_verifier_sealed: string | null;
  folder: string | null;
  expires_at: Timestamp;
  /** Started by a browser redirect: finished only with the cookie it set (migration 0008). */
  browser_bound: Generated<boolean>;
  created_at: CreatedAt;
}

export type LibrarySourceKind = 'local' | 'filehostA' | 'filehostB';

/** Where audio files come from: the server-wide local folder or a user's file host (migration 0006). */
export interface LibrarySourcesTable {
  id: Generated<number>;
  kind: LibrarySourceKind;
  /** null for a server-wide source, which every user sees. */
  user_id: string | null;
  name: string;
  root: string;
  scan_lease_until: Timestamp | null;
  last_scan_at: Timestamp | null;
  last_scan_report: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** A file host's change cursor (migration 0007). */
  sync_cursor: string | null;
  /** The provider's id of a file host source's root folder. */
  root_file_id: string | null;
  /** Why the last scan or sync failed; null after one succeeds (migration 0008). */
  last_scan_error: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface LibraryDirectoriesTable {
  id: Generated<string>;
  source_id: number;
  user_id: string | null;
  /** null only for a source's root directory. */
  parent_id: string | null;
  name: string;
  /** Relative to the source root, '/'-separated; '' for the root. */
  path: string;
  file_id: string | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface LibraryFilesTable {
  id: Generated<string>;
  source_id: number;
  user_id: string | null;
  directory_id: string;
  name: string;
  /** Relative to the source root, '/'-separated. */
  path: string;
  path_lower: Computed<string>;
  file_id: string | null;
  track_id: string | null;
  size: ColumnType<string, number | bigint | string, number | bigint | string>;
  modified_at: Timestamp;
  content_type: string;
  suffix: string;
  bit_rate: number | null;
  duration_ms: number | null;
  /** The tag reader version that read the file (core/library/tags.ts TAG_READER_VERSION). */
  tag_reader: number;
  year: number | null;
  /** 'embedded', a folder image's path relative to the source root, or null. */
  cover: string | null;
  /** The ETag of the picture `cover` names, stored when first served; null until then and after the scan changes the file (migration 0022). */
  cover_etag: string | null;
  client_modified: Timestamp | null;
  server_modified: Timestamp | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

/** Where playback stands in a user's queue_items; one row per user (migration 0006). */
export interface PlayQueuesTable {
  user_id: string;
  /** A position in queue_items, or null. */
  current: number | null;
  position_ms: ColumnType<string, number | bigint | string | undefined, number | bigint | string>;
  changed_by: Generated<string>;
  changed_at: CreatedAt;
}

export interface ImportCheckpointsTable {
  user_id: string;
  fingerprint: string;
  format: string;
  records_consumed: Generated<number>;
  stored: Generated<number>;
  duplicate: Generated<number>;
  ignored: Generated<number>;
  completed_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: CreatedAt;
}

export interface LastfmSessionsTable {
  id: Generated<string>;
  user_id: string;
  api_key_id: string;
  key_hash: string;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
}

export interface LastfmTokensTable {
  token_hash: string;
  api_key_id: string;
  user_id: string | null;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export interface AudioscrobblerSessionsTable {
  id: Generated<string>;
  session_hash: string;
  user_id: string;
  api_key_id: string;
  expires_at: Timestamp;
  created_at: CreatedAt;
}

export type CatalogEditKind = 'mergeArtists' | 'mergeAlbums' | 'mergeSongs' | 'updateArtist' | 'updateAlbum' | 'updateSong';

/** One admin edit of the catalog and what undoing it restores (migration 0009). */
export interface CatalogEditsTable {
  id: ColumnType<number, never, never>;
  user_id: string | null;
  kind: CatalogEditKind;
  summary: string;
  changes: ColumnType<unknown, string, string>;
  touched: TextArray;
  created_at: CreatedAt;
  undone_at: Timestamp | null;
  undone_by: string | null;
}

/** A merged-away id or an old match key, and the catalog entry it now resolves to (migration 0009). */
export interface CatalogAliasesTable {
  id: Generated<string>;
  kind: StarKind;
  old_id: string | null;
  survivor_id: string;
  artist_id: string | null;
  name_key: string | null;
  edit_id: number;
}

export interface SignInSessionsTable {
  id: Generated<string>;
  user_id: string;
  user_agent: string | null;
  created_at: CreatedAt;
  last_used_at: CreatedAt;
  expires_at: Timestamp;
}

export type EnrichmentOutcome = 'enriched' | 'unchanged' | 'no-match' | 'failed';

/** When a catalog entry was last looked up at MusicBrainz, and how it went (migration 0015). */
export interface EnrichmentAttemptsTable {
  kind: StarKind;
  entry_id: string;
  outcome: EnrichmentOutcome;
  tried_at: CreatedAt;
}

/** MusicBrainz's answers by request URL; body null for its 404 (migration 0015). */
export interface EnrichmentCacheTable {
  url: string;
  /** `unknown | null` says what `unknown` already allows, for readers and for schema.test.ts. */
  body: ColumnType<unknown | null, string | null, string | null>;
  fetched_at: CreatedAt;
}

/** An album's cover from the Cover Art Archive (migration 0015). */
export interface AlbumCoversTable {
  album_id: string;
  content_type: string;
  data: Buffer;
  release_mbid: string;
  /** The picture's ETag, computed by the database from `data` (migration 0022). */
  etag: Computed<string>;
  created_at: CreatedAt;
}

/** An artist's picture from Deezer, served at /artist-images/<artist id> (migration 0019). */
export interface ArtistImagesTable {
  artist_id: string;
  content_type: string;
  data: Buffer;
  deezer_id: string;
  /** The picture's ETag, computed by the database from `data` (migration 0022). */
  etag: Computed<string>;
  created_at: CreatedAt;
}

/** A user's avatar, fetched once when set and served from /avatars/<user id> (migration 0017). */
export interface UserAvatarsTable {
  user_id: string;
  source_url: string;
  data: Buffer;
  /** The picture's ETag, computed by the database from `data` (migration 0022). */
  etag: Computed<string>;
  updated_at: CreatedAt;
}

/** The one row saying which process enriches until when (migration 0015). */
export interface EnrichmentLeaseTable {
  only_row: Generated<boolean>;
  holder: string | null;
  until: Timestamp | null;
}

export type RelayTargetKind = 'listenbrainz' | 'lastfm' | 'maloja' | 'earshot';

/** Where a user's plays are relayed out to (migration 0024). */
export interface RelayTargetsTable {
  user_id: string;
  id: Generated<string>;
  kind: RelayTargetKind;
  name: string;
  base_url: string | null;
  secret_sealed: string | null;
  account_name: string | null;
  relay_imports: Generated<boolean>;
  imports_from: Timestamp | null;
  imports_until: Timestamp | null;
  hold_until: Timestamp | null;
  last_success_at: Timestamp | null;
  last_error: string | null;
  last_error_at: Timestamp | null;
  created_at: CreatedAt;
}

export type RelayOutboxState = 'queued' | 'delivered' | 'refused' | 'dead';

/** What an outbox row asks of its target: to store the play, or to delete it (migration 0028). */
export type RelayOutboxOp = 'scrobble' | 'delete';

/** A play, or its deletion, to deliver to one relay target, written with the play or the deletion (migrations 0024, 0028). */
export interface RelayOutboxTable {
  user_id: string;
  /** bigint: read as a string. */
  id: ColumnType<string, never, never>;
  target_id: string;
  scrobble_id: string;
  op: ColumnType<RelayOutboxOp, RelayOutboxOp | undefined, RelayOutboxOp>;
  payload: Json;
  state: ColumnType<RelayOutboxState, RelayOutboxState | undefined, RelayOutboxState>;
  attempts: Generated<number>;
  next_attempt_at: CreatedAt;
  lease_until: Timestamp | null;
  lease_token: string | null;
  last_error: string | null;
  delivered_at: Timestamp | null;
  created_at: CreatedAt;
}

export type SyncSourceKind = 'listenbrainz' | 'lastfm';

/** An account at another scrobbling service whose plays are pulled in, with its pass's cursor and lease (migration 0026). */
export interface SyncSourcesTable {
  user_id: string;
  id: Generated<string>;
  kind: SyncSourceKind;
  base_url: string | null;
  username: string;
  paused: Generated<boolean>;
  pass_from: Timestamp | null;
  pass_to: Timestamp | null;
  pass_before: Timestamp | null;
  pass_page: number | null;
  pass_expected: number | null;
  pass_fetched: Generated<number>;
  synced_until: Timestamp | null;
  history_done_at: Timestamp | null;
  fetched: Generated<number>;
  stored: Generated<number>;
  duplicate: Generated<number>;
  ignored: Generated<number>;
  next_run_at: CreatedAt;
  lease_until: Timestamp | null;
  lease_token: string | null;
  failures: Generated<number>;
  last_run_at: Timestamp | null;
  last_success_at: Timestamp | null;
  last_error: string | null;
  last_error_at: Timestamp | null;
  created_at: CreatedAt;
}

export type WebhookEvent = 'scrobble' | 'nowPlaying' | 'love' | 'test';

/** A user's webhook: a URL told of their events, in JSON signed with its secret (migration 0025). */
export interface WebhooksTable {
  user_id: string;
  id: Generated<string>;
  url: string;
  events: WebhookEvent[];
  secret_sealed: string;
  created_at: CreatedAt;
}

export type WebhookDeliveryState = 'queued' | 'delivered' | 'dead';

/** One event to deliver to one webhook, and the log of its tries (migration 0025). */
export interface WebhookDeliveriesTable {
  user_id: string;
  /** bigint: read as a string. */
  id: ColumnType<string, never, never>;
  hook_id: string;
  delivery_id: Generated<string>;
  event: WebhookEvent;
  payload: Json;
  state: ColumnType<WebhookDeliveryState, WebhookDeliveryState | undefined, WebhookDeliveryState>;
  attempts: Generated<number>;
  next_attempt_at: CreatedAt;
  lease_until: Timestamp | null;
  lease_token: string | null;
  last_status: number | null;
  last_response: string | null;
  last_duration_ms: number | null;
  last_attempt_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface DB {
  users: UsersTable;
  follows: FollowsTable;
  artists: ArtistsTable;
  albums: AlbumsTable;
  tracks: TracksTable;
  scrobbles: ScrobblesTable;
  now_playing: NowPlayingTable;
  stars: StarsTable;
  lb_latest_imports: LbLatestImportsTable;
  song_dislikes: SongDislikesTable;
  playlists: PlaylistsTable;
  playlist_items: PlaylistItemsTable;
  api_keys: ApiKeysTable;
  access_tokens: AccessTokensTable;
  queue_items: QueueItemsTable;
  provider_accounts: ProviderAccountsTable;
  oauth_states: OauthStatesTable;
  library_sources: LibrarySourcesTable;
  library_directories: LibraryDirectoriesTable;
  library_files: LibraryFilesTable;
  play_queues: PlayQueuesTable;
  lastfm_sessions: LastfmSessionsTable;
  lastfm_tokens: LastfmTokensTable;
  audioscrobbler_sessions: AudioscrobblerSessionsTable;
  import_checkpoints: ImportCheckpointsTable;
  catalog_edits: CatalogEditsTable;
  catalog_aliases: CatalogAliasesTable;
  sign_in_sessions: SignInSessionsTable;
  stats_queue: StatsQueueTable;
  stats_queue_users: StatsQueueUsersTable;
  stats_track_counts: StatsTrackCountsTable;
  stats_hours: StatsHoursTable;
  stats_days: StatsDaysTable;
  stats_group_counts: StatsGroupCountsTable;
  stats_track_totals: StatsTrackTotalsTable;
  stats_catalog_plays: StatsCatalogPlaysTable;
  stats_artist_totals: StatsArtistTotalsTable;
  stats_album_totals: StatsAlbumTotalsTable;
  stats_track_groups: StatsTrackGroupsTable;
  stats_regroup: StatsRegroupTable;
  enrichment_attempts: EnrichmentAttemptsTable;
  enrichment_cache: EnrichmentCacheTable;
  album_covers: AlbumCoversTable;
  enrichment_lease: EnrichmentLeaseTable;
  user_avatars: UserAvatarsTable;
  artist_images: ArtistImagesTable;
  relay_targets: RelayTargetsTable;
  relay_outbox: RelayOutboxTable;
  sync_sources: SyncSourcesTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
