import type { ProviderConfig } from '../../../toolkit/config.ts';
import type { FakeOAuth } from './oauth.ts';
import type { FakeServer } from './server.ts';

/** What a test (or `earshot fake-providers`) does with either file host's fake. */
export interface FakeFileHost {
  server: FakeServer;
  oauth: FakeOAuth;
  config: ProviderConfig;
  url: string;
  /** Creates the folder and any missing parents; returns its id. Paths are absolute: '/Music/Rock'. */
  addFolder(path: string): string;
  /** Creates (or replaces the content of) a file, parents created as needed; returns its id. */
  addFile(path: string, bytes: Uint8Array, modifiedAt?: Date): string;
  /** Deletes (or, at filehostA, trashes a folder) with the subtree. */
  removePath(path: string): void;
  /** Renames or moves a file or folder (the subtree follows, ids kept). */
  move(from: string, to: string): void;
  /** How many bytes downloads have sent so far (to prove tags are read with ranges). */
  readonly bytesServed: number;
  close(): Promise<void>;
}

export interface FakeFileHostOptions {
  port?: number;
  pageSize?: number;
  clientId?: string;
  clientSecret?: string;
  account?: string;
}
