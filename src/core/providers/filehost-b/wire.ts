/**
 * The Dropbox API v2 shapes Earshot reads and the fake sends: the fields used, not the full
 * records (which carry more, e.g. content_hash, sharing_info).
 */

export interface FolderMetadata {
  '.tag': 'folder';
  name: string;
  id: string;
  path_lower: string;
  path_display: string;
}

export interface FileMetadata {
  '.tag': 'file';
  name: string;
  id: string;
  path_lower: string;
  path_display: string;
  size: number;
  /** UTC to the second, '2015-05-12T15:50:38Z'. */
  client_modified: string;
  server_modified: string;
  rev: string;
  is_downloadable: boolean;
}

/** In list_folder/continue only: the path is gone, with everything below it. */
export interface DeletedMetadata {
  '.tag': 'deleted';
  name: string;
  path_lower: string;
  path_display: string;
}

export type Metadata = FolderMetadata | FileMetadata | DeletedMetadata;

export interface ListFolderResult {
  entries: Metadata[];
  cursor: string;
  has_more: boolean;
}

/** users/get_current_account. */
export interface FullAccount {
  account_id: string;
  name: { display_name: string };
  email: string;
  /** Paths such as '/Music' are rooted at the home namespace unless a Dropbox-API-Path-Root header says otherwise. */
  root_info: { '.tag': 'user'; root_namespace_id: string; home_namespace_id: string };
}

/** The body of an endpoint's own error (HTTP 409) and of a 401. */
export interface ApiError {
  error_summary: string;
  error: { '.tag': string } & Record<string, unknown>;
}
