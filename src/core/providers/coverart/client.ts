/**
 * The Cover Art Archive: `/release/{mbid}/front-250` answers a redirect to the image's 250 px
 * thumbnail at archive.org (fetch follows it), or 404 when the release has no front cover.
 * The bytes are handed back to be stored, so pages show Earshot's copy and never hot-link; only
 * bytes that are an allowed image (image-type.ts) are, typed by what they are.
 */
import { imageType } from '../../../toolkit/image-type.ts';
import { ProviderError } from '../errors.ts';
import { metadataGet, RequestSpacer } from '../metadata-fetch.ts';
import type { CoverArtClient } from '../types.ts';

/** A 250 px thumbnail is tens of kilobytes; anything far larger is not what was asked for. */
const MAX_COVER_BYTES = 5 * 1024 * 1024;

export interface CoverArtSettings {
  baseUrl: string;
  userAgent: string;
  /** The archive sets no request rate; by default its requests are spaced only by the enrichment's own pace. */
  spacer?: RequestSpacer | undefined;
}

export function createCoverArtClient(settings: CoverArtSettings): CoverArtClient {
  const spacer = settings.spacer ?? new RequestSpacer(0);
  return {
    name: 'coverart',
    async frontCover(releaseMbid) {
      const url = `${settings.baseUrl}/release/${encodeURIComponent(releaseMbid)}/front-250`;
      const response = await metadataGet('coverart', url, settings.userAgent, spacer, 'image/*');
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const declaredLength = Number(response.headers.get('content-length') ?? 0);
      if (!contentType.startsWith('image/') || declaredLength > MAX_COVER_BYTES) {
        await response.body?.cancel();
        throw new ProviderError('Unavailable', 'coverart', `coverart sent ${contentType || 'no content type'} of ${declaredLength} bytes, not a cover`);
      }
      const data = Buffer.from(await response.arrayBuffer());
      if (data.length > MAX_COVER_BYTES) throw new ProviderError('Unavailable', 'coverart', 'coverart sent a cover larger than 5 MB');
      // The declared type says what the sender claims; the bytes say what it is.
      const sniffed = imageType(data);
      if (!sniffed) throw new ProviderError('Unavailable', 'coverart', `coverart sent ${contentType} whose bytes are no JPEG, PNG, GIF, WebP or AVIF image`);
      return { contentType: sniffed, data };
    },
  };
}
