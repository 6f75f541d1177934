/**
 * MusicBrainz's web service (WS/2, JSON): recording and release searches (Lucene queries,
 * answered with a 0–100 score per result) and lookups of recordings, releases and artists with
 * their genres and tags. Answers are kept in a cache when one is given, so the same question is
 * not asked twice (an artist shared by many songs, a search repeated after a failure elsewhere).
 */
import { ProviderError } from '../errors.ts';
import { providerJson } from '../http.ts';
import { metadataGet, MUSICBRAINZ_SPACER, type RequestSpacer } from '../metadata-fetch.ts';
import type { CreditedArtist, MetadataEntity, MetadataEntityKind, MusicBrainzClient, VotedName } from '../types.ts';

/** Remembered answers by URL; null stands for MusicBrainz's 404. */
export interface ResponseCache {
  get(url: string): Promise<{ body: unknown } | undefined>;
  put(url: string, body: unknown): Promise<void>;
}

export interface MusicBrainzSettings {
  /** e.g. https://musicbrainz.org; /ws/2 is appended. */
  baseUrl: string;
  userAgent: string;
  spacer?: RequestSpacer | undefined;
  cache?: ResponseCache | undefined;
}

/** What a lookup asks to be included, per kind: what enrichment fills. */
const INCLUDES: Record<MetadataEntityKind, string> = {
  recording: 'artists+releases+genres+tags',
  release: 'artists+genres+tags',
  artist: 'genres+tags',
};

const SEARCH_LIMIT = 5;

interface WireCredit {
  name?: string;
  artist?: { id?: string; name?: string };
}

interface WireEntity {
  id?: string;
  title?: string;
  name?: string;
  score?: number | string;
  'artist-credit'?: WireCredit[];
  releases?: { id?: string; title?: string }[];
  genres?: { name?: string; count?: number }[];
  tags?: { name?: string; count?: number }[];
}

/** A phrase inside a Lucene query: quotes and backslashes escaped. */
const phrase = (text: string) => `"${text.replace(/[\\"]/g, (character) => `\\${character}`)}"`;

function votedNames(list: WireEntity['genres']): VotedName[] {
  return (list ?? [])
    .filter((entry): entry is { name: string; count?: number } => typeof entry.name === 'string' && entry.name.trim() !== '')
    .map((entry) => ({ name: entry.name.trim(), count: Number(entry.count ?? 0) }))
    .sort((left, right) => right.count - left.count || left.name.localeCompare(right.name));
}

function entityOf(wire: WireEntity, kind: MetadataEntityKind): MetadataEntity | null {
  if (typeof wire.id !== 'string') return null;
  const credits = wire['artist-credit'] ?? [];
  const genres = votedNames(wire.genres);
  return {
    mbid: wire.id.toLowerCase(),
    title: (kind === 'artist' ? wire.name : wire.title) ?? '',
    score: wire.score === undefined ? 100 : Number(wire.score),
    artists: credits
      .filter((credit) => typeof credit.artist?.id === 'string')
      .map((credit): CreditedArtist => ({ mbid: credit.artist!.id!.toLowerCase(), name: credit.artist!.name ?? credit.name ?? '' })),
    releases: (wire.releases ?? [])
      .filter((release) => typeof release.id === 'string')
      .map((release) => ({ mbid: release.id!.toLowerCase(), title: release.title ?? '' })),
    genres: genres.length > 0 ? genres : votedNames(wire.tags),
  };
}

export function createMusicBrainzClient(settings: MusicBrainzSettings): MusicBrainzClient {
  const spacer = settings.spacer ?? MUSICBRAINZ_SPACER;
  const api = `${settings.baseUrl}/ws/2`;

  async function getJson(url: string): Promise<unknown> {
    const cached = await settings.cache?.get(url);
    if (cached) return cached.body;
    const response = await metadataGet('musicbrainz', url, settings.userAgent, spacer, 'application/json');
    let body: unknown = null;
    if (response.status === 404) await response.body?.cancel();
    else body = await providerJson<unknown>('musicbrainz', response);
    if (body !== null && typeof body !== 'object') throw new ProviderError('Unavailable', 'musicbrainz', 'musicbrainz sent an answer that is not an object');
    await settings.cache?.put(url, body);
    return body;
  }

  return {
    name: 'musicbrainz',
    async search(kind, artist, title) {
      const query = `${kind}:${phrase(title)} AND artist:${phrase(artist)}`;
      const body = (await getJson(`${api}/${kind}?query=${encodeURIComponent(query)}&limit=${SEARCH_LIMIT}&fmt=json`)) as Record<
        string,
        WireEntity[] | undefined
      > | null;
      const found = body?.[`${kind}s`] ?? [];
      return found.map((wire) => entityOf(wire, kind)).filter((entity): entity is MetadataEntity => entity !== null);
    },
    async lookup(kind, mbid) {
      const body = (await getJson(`${api}/${kind}/${encodeURIComponent(mbid)}?inc=${INCLUDES[kind]}&fmt=json`)) as WireEntity | null;
      return body === null ? null : entityOf(body, kind);
    },
  };
}
