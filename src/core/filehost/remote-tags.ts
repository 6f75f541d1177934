/**
 * Tags of a file at a file host, read with byte ranges: the parser asks for the header, the
 * tag blocks and, for some formats, the end of the file. Only a file whose headers give no
 * duration, and no larger than WHOLE_FILE_DURATION_LIMIT, is downloaded whole, once, to count it.
 */
import { tokenizer, parseContentRange, type IRangeRequestClient, type IRangeRequestResponse } from '@tokenizer/range';
import type { AppContext } from '../context.ts';
import type { WalkedFile } from '../library/scan/walk.ts';
import { AUDIO_TYPES, readTokenizerTags, suffixOf, type FileTags } from '../library/tags.ts';
import { withAccessToken } from '../providers/connections.ts';
import { ProviderError } from '../providers/errors.ts';
import type { FileHostClient } from '../providers/types.ts';

/** Bytes asked for at least per request: tag blocks are rarely smaller, round trips cost more than bytes. */
const MINIMUM_CHUNK = 64 * 1024;

/**
 * Largest file host file downloaded whole for a duration its headers do not give (most Ogg files:
 * their length is on their last page). Every byte goes through the user's connection and counts
 * against the host's quota, so the cap is an hour of lossy audio at 128 kbit/s (58 MB) with room
 * to spare: songs, live sets and episodes get their length, bigger files show none.
 */
export const WHOLE_FILE_DURATION_LIMIT = 64 * 1024 * 1024;

export interface RemoteFileSource {
  ctx: AppContext;
  userId: string;
  client: FileHostClient;
  /** The mirrored folder, as the provider names it. */
  root: string;
}

/** The host's answer for the file, or a range of it: 200 or 206, else a ProviderError. */
async function download(source: RemoteFileSource, file: WalkedFile, range?: string): Promise<Response> {
  const response = await withAccessToken(source.ctx, source.userId, source.client.name, (token) =>
    source.client.download(token, { id: file.fileId!, path: file.path }, source.root, range),
  );
  if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel();
    throw new ProviderError('Unavailable', source.client.name, `${source.client.name} answered HTTP ${response.status} to a download of ${file.path}`);
  }
  return response;
}

/** A file host file, ranged through the user's connection (each request may refresh the token). */
function rangeClient(source: RemoteFileSource, file: WalkedFile): IRangeRequestClient {
  const mimeType = AUDIO_TYPES[suffixOf(file.name)] ?? 'application/octet-stream';
  return {
    getHeadInfo: async () => ({ size: file.size, mimeType, path: file.name, acceptPartialRequests: true }),
    async getResponse(_method, range): Promise<IRangeRequestResponse> {
      const response = await download(source, file, range ? `bytes=${range[0]}-${range[1]}` : undefined);
      const contentRange =
        response.status === 206
          ? parseContentRange(response.headers.get('content-range') ?? '')
          : { firstBytePosition: 0, lastBytePosition: file.size - 1, instanceLength: file.size };
      return {
        size: contentRange.instanceLength ?? file.size,
        mimeType,
        path: file.name,
        acceptPartialRequests: true,
        contentRange,
        arrayBuffer: async () => new Uint8Array(await response.arrayBuffer()),
      };
    },
    // Each range is one short request, already bounded by the provider timeout: nothing to cancel.
    abort: () => {},
  };
}

/** Reads a file host file's tags (pictures skipped). */
export async function readRemoteTags(source: RemoteFileSource, file: WalkedFile): Promise<FileTags> {
  const ranged = await tokenizer(rangeClient(source, file), { minimumChunkSize: MINIMUM_CHUNK, initialChunkSize: MINIMUM_CHUNK });
  const wholeFile = file.size <= WHOLE_FILE_DURATION_LIMIT ? () => wholeBody(source, file) : undefined;
  try {
    return await readTokenizerTags(ranged, file.name, wholeFile);
  } finally {
    await ranged.close();
  }
}

/** The whole file in one request, its bytes as they arrive. */
async function wholeBody(source: RemoteFileSource, file: WalkedFile): Promise<ReadableStream<Uint8Array>> {
  const response = await download(source, file);
  if (!response.body) throw new ProviderError('Unavailable', source.client.name, `${source.client.name} sent no bytes for ${file.path}`);
  return response.body;
}
