/**
 * Requests to the metadata services (MusicBrainz, the Cover Art Archive, Deezer), which serve anyone who
 * names themselves: every request carries a User-Agent with a contact, MusicBrainz's are spaced a
 * second apart (its published rule, answered with 503 when broken), and a 503 is retried after a
 * growing pause. Within a process one spacer is shared; across processes the enrichment job's
 * lease lets one process at a time make these requests.
 */
import type { MetadataProviderName } from '../../toolkit/config.ts';
import { imageType, type ImageType } from '../../toolkit/image-type.ts';
import { PACKAGE_VERSION } from '../../toolkit/package-root.ts';
import { ProviderError } from './errors.ts';
import { providerFetch } from './http.ts';

/** Time as the spacer and the retries see it; tests pass one that records pauses instead of taking them. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Lets calls through at most one per `intervalMs`: each take() waits for the first free slot after the last one given. */
export class RequestSpacer {
  private nextSlot = 0;
  constructor(
    private readonly intervalMs: number,
    readonly clock: Clock = systemClock,
  ) {}

  async take(): Promise<void> {
    const now = this.clock.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + this.intervalMs;
    if (slot > now) await this.clock.sleep(slot - now);
  }
}

/** MusicBrainz allows one request per second per client; every MusicBrainz client in the process takes its turn here. */
export const MUSICBRAINZ_SPACER = new RequestSpacer(1_000);

/** What MusicBrainz asks every client to send: application, version and a way to reach its operator. */
export const metadataUserAgent = (contact: string) => `Earshot/${PACKAGE_VERSION} ( ${contact} )`;

/** A 503 is tried this many times in all, pausing 1 s, 2 s, 4 s… (or the Retry-After) between. */
const ATTEMPTS = 4;

/**
 * GETs `url` through the spacer, retrying a 503; 404 comes back to the caller (the service has no
 * such entity), any other failure is providerFetch's ProviderError.
 */
export async function metadataGet(provider: MetadataProviderName, url: string, userAgent: string, spacer: RequestSpacer, accept: string): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    await spacer.take();
    const response = await providerFetch(provider, url, { headers: { 'user-agent': userAgent, accept } }, [404, 503]);
    if (response.status !== 503) return response;
    await response.body?.cancel();
    if (attempt === ATTEMPTS) throw new ProviderError('Unavailable', provider, `${provider} is overloaded (HTTP 503 ${ATTEMPTS} times)`);
    const retryAfter = Number(response.headers.get('retry-after'));
    await spacer.clock.sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1_000 : 1_000 * 2 ** (attempt - 1));
  }
}

/**
 * The picture a metadata service sent, for Earshot to keep and serve itself: refused (Unavailable)
 * unless it declares an image, is at most `maxBytes` and its bytes are an allowed image, typed by
 * what the bytes are (the declared type says only what the sender claims).
 */
export async function metadataImage(provider: MetadataProviderName, response: Response, maxBytes: number): Promise<{ contentType: ImageType; data: Buffer }> {
  const declared = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const declaredLength = Number(response.headers.get('content-length') ?? 0);
  if (!declared.startsWith('image/') || declaredLength > maxBytes) {
    await response.body?.cancel();
    throw new ProviderError('Unavailable', provider, `${provider} sent ${declared || 'no content type'} of ${declaredLength} bytes, not a picture`);
  }
  const data = Buffer.from(await response.arrayBuffer());
  if (data.length > maxBytes) throw new ProviderError('Unavailable', provider, `${provider} sent a picture larger than ${maxBytes} bytes`);
  const contentType = imageType(data);
  if (!contentType) throw new ProviderError('Unavailable', provider, `${provider} sent ${declared} whose bytes are no JPEG, PNG, GIF, WebP or AVIF image`);
  return { contentType, data };
}
