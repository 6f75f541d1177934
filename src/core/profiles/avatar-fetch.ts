/**
 * Fetches the picture at a URL a user gave, for Earshot to keep and serve itself. The URL is the
 * user's, so the fetch is bounded every way it can be abused: only http(s); the addresses a host
 * name resolves to are checked where the connection is made (so a name that answers a public
 * address to a check and a private one to the connection gains nothing) and private, loopback and
 * link-local ones refused unless the operator allows them; at most a few redirects, each checked
 * the same; a size cap; a deadline; and the answer must be an image by its bytes.
 */
import http from 'node:http';
import https from 'node:https';
import { imageType } from '../../toolkit/image-type.ts';
import { guardedLookup, literalHostProblem, NOT_PUBLIC_CODE } from '../../toolkit/public-address.ts';

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const MAX_REDIRECTS = 3;
const DEADLINE_MS = 10_000;

/** Why a picture could not be had, in words for the person who gave the URL. */
export class AvatarFetchError extends Error {}

export interface AvatarFetchOptions {
  /** Whether hosts on private, loopback and link-local addresses may be fetched from (AVATAR_PRIVATE_ADDRESSES=allow). */
  privateAddresses: boolean;
}

interface Answer {
  status: number;
  location: string | undefined;
  body: Buffer;
}

function get(url: URL, options: AvatarFetchOptions, signal: AbortSignal): Promise<Answer> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { lookup: guardedLookup(options.privateAddresses) as never, signal, headers: { accept: 'image/*' } }, (response) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        response.resume();
        return resolve({ status, location: response.headers.location, body: Buffer.alloc(0) });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > AVATAR_MAX_BYTES) return request.destroy(new AvatarFetchError(`the picture is larger than ${AVATAR_MAX_BYTES / 1024 / 1024} MiB`));
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, location: undefined, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

function checkUrl(url: URL, options: AvatarFetchOptions): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AvatarFetchError('only http:// and https:// addresses are fetched');
  const problem = literalHostProblem(url, options.privateAddresses);
  if (problem) throw new AvatarFetchError(problem);
}

/** Why a fetch failed, without the internals of the failure. */
function reason(error: unknown, signal: AbortSignal): string {
  if (error instanceof AvatarFetchError) return error.message;
  if (signal.aborted) return `no answer within ${DEADLINE_MS / 1000} s`;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === NOT_PUBLIC_CODE) return (error as Error).message;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name is not known';
  return 'the host could not be reached';
}

/** The picture at `address` (following up to 3 redirects), or AvatarFetchError saying why not. */
export async function fetchAvatar(address: string, options: AvatarFetchOptions): Promise<Buffer> {
  const signal = AbortSignal.timeout(DEADLINE_MS);
  let url = new URL(address);
  for (let hop = 0; ; hop++) {
    checkUrl(url, options);
    let answer: Answer;
    try {
      answer = await get(url, options, signal);
    } catch (error) {
      throw new AvatarFetchError(reason(error, signal));
    }
    if (answer.status >= 300 && answer.status < 400 && answer.location !== undefined) {
      if (hop === MAX_REDIRECTS) throw new AvatarFetchError(`more than ${MAX_REDIRECTS} redirects`);
      url = new URL(answer.location, url);
      continue;
    }
    if (answer.status < 200 || answer.status >= 300) throw new AvatarFetchError(`the host answered HTTP ${answer.status}`);
    if (!imageType(answer.body)) throw new AvatarFetchError('the address does not give a JPEG, PNG, GIF, WebP or AVIF picture');
    return answer.body;
  }
}
