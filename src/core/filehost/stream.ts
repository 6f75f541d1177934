/**
 * A file host file's bytes for a player (Subsonic stream / download): proxied from the host with
 * the player's Range, streaming, through the owner's connection. Players see the host's status
 * (200, 206, 416) and length headers as if the file were here.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { AppContext } from '../context.ts';
import { LibraryError, libraryNotFound } from '../library/errors.ts';
import type { StreamedFile } from '../library/streamed-file.ts';
import { withAccessToken } from '../providers/connections.ts';
import { ProviderError } from '../providers/errors.ts';
import { providerClient } from '../providers/registry.ts';
import type { FileHostName } from './hosts.ts';

export interface HostedFile {
  kind: FileHostName;
  /** The user whose connection reaches the file. */
  owner_id: string;
  root: string;
  path: string;
  file_id: string | null;
  content_type: string;
}

/** Headers of the host's answer that a player needs. */
const PASSED_HEADERS = ['content-length', 'content-range'];

export async function hostedBytes(ctx: AppContext, file: HostedFile, range: string | undefined, extraHeaders: Record<string, string>): Promise<StreamedFile> {
  if (file.file_id === null) throw libraryNotFound(`the file ${file.path} has no id at ${file.kind}; sync again`);
  let response: Response;
  try {
    const client = providerClient(ctx.config, file.kind);
    response = await withAccessToken(ctx, file.owner_id, file.kind, (token) =>
      client.download(token, { id: file.file_id!, path: file.path }, file.root, range),
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // A file the host no longer has is "not found"; anything else is Subsonic's generic failure, in words.
    throw error.failure === 'FolderNotFound' ? libraryNotFound(error.message) : new LibraryError('Generic', error.message);
  }
  const headers: Record<string, string> = { 'accept-ranges': 'bytes', ...extraHeaders };
  for (const name of PASSED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const status = response.status === 206 || response.status === 416 ? response.status : 200;
  const body = response.body ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>) : Buffer.alloc(0);
  return { status, contentType: file.content_type, headers, body };
}
