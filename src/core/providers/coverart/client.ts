/**
 * The Cover Art Archive: `/release/{mbid}/front-250` answers a redirect to the image's 250 px
 * thumbnail at archive.org (fetch follows it), or 404 when the release has no front cover.
 * The bytes are handed back to be stored, so pages show Earshot's copy and never hot-link; only
 * bytes that are an allowed image (image-type.ts) are, typed by what they are.
 */
import { metadataGet, metadataImage, RequestSpacer } from '../metadata-fetch.ts';
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
      return metadataImage('coverart', response, MAX_COVER_BYTES);
    },
  };
}
