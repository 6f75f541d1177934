/**
 * Deezer's public API (no account), for artist pictures: `/search/artist?q=<name>` answers the
 * artists it finds with their picture URLs at Deezer's image CDN. Only an artist whose name is the
 * catalog's name under its folding is taken (of several, the one with the most fans), never a
 * near match; an artist without a picture has Deezer's placeholder, whose path has an empty hash
 * (`/images/artist//…`), and counts as none. Errors come as HTTP 200 with `{ error: { code } }`.
 * The picture is downloaded and handed back to be stored, so pages show Earshot's copy.
 */
import { ProviderError } from '../errors.ts';
import { providerJson } from '../http.ts';
import { metadataGet, metadataImage, RequestSpacer } from '../metadata-fetch.ts';
import type { DeezerClient } from '../types.ts';

/** Deezer allows 50 requests per 5 seconds; a tenth of a second apart stays well inside it. */
const DEEZER_INTERVAL_MS = 100;
/** Namesakes to compare: an exact name is among the first few results when Deezer has it. */
const SEARCH_LIMIT = 10;
/** A 1000 px JPEG is a few hundred kilobytes; anything far larger is not what was asked for. */
const MAX_PICTURE_BYTES = 5 * 1024 * 1024;

/** Deezer's error codes that mean something here (https://developers.deezer.com/api/errors). */
const QUOTA_EXCEEDED = 4;
const SERVICE_BUSY = 700;
const DATA_NOT_FOUND = 800;

interface WireArtist {
  id?: number | string;
  name?: string;
  picture_big?: string | null;
  picture_xl?: string | null;
  nb_fan?: number;
}

interface WireAnswer {
  data?: WireArtist[];
  error?: { type?: string; message?: string; code?: number };
}

export interface DeezerSettings {
  /** e.g. https://api.deezer.com */
  baseUrl: string;
  userAgent: string;
  spacer?: RequestSpacer | undefined;
}

/** The picture's address when it is one worth fetching: an http(s) URL that is not the placeholder. */
function pictureUrl(artist: WireArtist): string | null {
  const raw = artist.picture_xl || artist.picture_big;
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return url.pathname.includes('/images/artist//') ? null : url.href;
}

function failureOf(error: NonNullable<WireAnswer['error']>): ProviderError | null {
  const message = `deezer answered ${error.type ?? 'an error'}: ${error.message ?? 'no message'}`;
  if (error.code === DATA_NOT_FOUND) return null;
  if (error.code === QUOTA_EXCEEDED) return new ProviderError('RateLimited', 'deezer', message);
  return new ProviderError(error.code === SERVICE_BUSY ? 'Unavailable' : 'Refused', 'deezer', message);
}

export function createDeezerClient(settings: DeezerSettings): DeezerClient {
  const spacer = settings.spacer ?? new RequestSpacer(DEEZER_INTERVAL_MS);

  async function search(name: string): Promise<WireArtist[]> {
    const url = `${settings.baseUrl}/search/artist?q=${encodeURIComponent(name)}&limit=${SEARCH_LIMIT}`;
    const response = await metadataGet('deezer', url, settings.userAgent, spacer, 'application/json');
    if (response.status === 404) {
      await response.body?.cancel();
      throw new ProviderError('Unavailable', 'deezer', 'deezer has no artist search at this address (HTTP 404)');
    }
    const body = await providerJson<WireAnswer | null>('deezer', response);
    if (body === null || typeof body !== 'object') throw new ProviderError('Unavailable', 'deezer', 'deezer sent an answer that is not an object');
    if (body.error) {
      const failure = failureOf(body.error);
      if (failure) throw failure;
      return [];
    }
    return Array.isArray(body.data) ? body.data : [];
  }

  return {
    name: 'deezer',
    async artistImage(name, nameKey) {
      const key = nameKey(name);
      const [artist] = (await search(name))
        .filter((candidate) => typeof candidate.name === 'string' && candidate.id !== undefined && nameKey(candidate.name) === key)
        .sort((left, right) => Number(right.nb_fan ?? 0) - Number(left.nb_fan ?? 0));
      const url = artist ? pictureUrl(artist) : null;
      if (!artist || !url) return null;
      const response = await metadataGet('deezer', url, settings.userAgent, spacer, 'image/*');
      if (response.status === 404) {
        await response.body?.cancel();
        return null;
      }
      return { deezerId: String(artist.id), ...(await metadataImage('deezer', response, MAX_PICTURE_BYTES)) };
    },
  };
}
