/**
 * Tags of a file at a file host, read with byte ranges: the parser asks for the header, the
 * tag blocks and, for some formats, the end of the file, never the whole of it.
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

export interface RemoteFileSource {
  ctx: AppContext;
  userId: string;
  client: FileHostClient;
  /** The mirrored folder, as the provider names it. */
  root: string;
}

/** A file host file, ranged through the user's connection (each request may refresh the token). */
function rangeClient(source: RemoteFileSource, file: WalkedFile): IRangeRequestClient {
  const mimeType = AUDIO_TYPES[suffixOf(file.name)] ?? 'application/octet-stream';
  return {
    getHeadInfo: async () => ({ size: file.size, mimeType, path: file.name, acceptPartialRequests: true }),
    async getResponse(_method, range): Promise<IRangeRequestResponse> {
      const response = await withAccessToken(source.ctx, source.userId, source.client.name, (token) =>
        source.client.download(token, { id: file.fileId!, path: file.path }, source.root, range ? `bytes=${range[0]}-${range[1]}` : undefined),
      );
      if (response.status !== 200 && response.status !== 206) {
        await response.body?.cancel();
        throw new ProviderError('Unavailable', source.client.name, `${source.client.name} answered HTTP ${response.status} to a range of ${file.path}`);
      }
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
  try {
    return await readTokenizerTags(ranged, file.name);
  } finally {
    await ranged.close();
  }
}
