/**
 * A stand-in for MusicBrainz's WS/2 JSON API on loopback: recording and release searches
 * (`<kind>:"title" AND artist:"name"`, the query the client sends) and lookups of recordings,
 * releases and artists with genres and tags, shaped as MusicBrainz answers them. A search scores
 * an exact title 100 and anything else by the artist 40, unless the entry sets its own score.
 */
import type { IncomingMessage } from 'node:http';
import { sendJson, startFakeServer, type FakeServer } from '../fake/server.ts';

export interface FakeArtistCredit {
  mbid: string;
  name: string;
}

export interface FakeEntity {
  mbid: string;
  /** A recording's or release's title; an artist's name. */
  title: string;
  /** Recordings and releases only. */
  artist?: FakeArtistCredit;
  /** A recording's releases. */
  releases?: { mbid: string; title: string }[];
  genres?: string[];
  tags?: string[];
  /** The search score to answer instead of the fake's own. */
  searchScore?: number;
}

export interface FakeMusicBrainzData {
  recordings?: FakeEntity[];
  releases?: FakeEntity[];
  artists?: FakeEntity[];
}

export interface FakeMusicBrainz extends FakeServer {
  /** The User-Agent of every request, oldest first. */
  readonly userAgents: string[];
}

const voted = (names: string[] = []) => names.map((name, index) => ({ name, count: names.length - index }));
const credit = (artist: FakeArtistCredit | undefined) =>
  artist ? [{ name: artist.name, joinphrase: '', artist: { id: artist.mbid, name: artist.name, 'sort-name': artist.name } }] : [];

function wire(kind: string, entity: FakeEntity, score?: number) {
  const named = kind === 'artist' ? { name: entity.title, 'sort-name': entity.title } : { title: entity.title, 'artist-credit': credit(entity.artist) };
  const releases =
    kind === 'recording' ? { releases: (entity.releases ?? []).map((release) => ({ id: release.mbid, title: release.title, status: 'Official' })) } : {};
  return {
    id: entity.mbid,
    ...(score === undefined ? {} : { score }),
    ...named,
    ...releases,
    genres: voted(entity.genres).map((genre) => ({ ...genre, id: genre.name, disambiguation: '' })),
    tags: voted(entity.tags),
  };
}

const QUERY = /^(recording|release):"((?:[^"\\]|\\.)*)" AND artist:"((?:[^"\\]|\\.)*)"$/;
const unquote = (text: string) => text.replace(/\\(.)/g, '$1');

export async function startFakeMusicBrainz(data: FakeMusicBrainzData): Promise<FakeMusicBrainz> {
  const userAgents: string[] = [];
  const byKind: Record<string, FakeEntity[]> = { recording: data.recordings ?? [], release: data.releases ?? [], artist: data.artists ?? [] };
  const handler = async (request: IncomingMessage, response: Parameters<typeof sendJson>[0], url: URL) => {
    userAgents.push(request.headers['user-agent'] ?? '');
    const [, ws, version, kind, mbid] = url.pathname.split('/');
    const entities = kind ? byKind[kind] : undefined;
    if (ws !== 'ws' || version !== '2' || !entities) return sendJson(response, 404, { error: 'Not Found' });
    if (mbid) {
      const entity = entities.find((candidate) => candidate.mbid === mbid);
      return entity ? sendJson(response, 200, wire(kind!, entity)) : sendJson(response, 404, { error: 'Not Found' });
    }
    const match = QUERY.exec(url.searchParams.get('query') ?? '');
    if (!match || match[1] !== kind) return sendJson(response, 400, { error: 'Invalid query' });
    const [title, artist] = [unquote(match[2]!).toLowerCase(), unquote(match[3]!).toLowerCase()];
    const found = entities
      .filter((entity) => entity.artist?.name.toLowerCase() === artist)
      .map((entity) => wire(kind!, entity, entity.searchScore ?? (entity.title.toLowerCase() === title ? 100 : 40)))
      .sort((left, right) => right.score! - left.score!);
    sendJson(response, 200, { created: new Date().toISOString(), count: found.length, offset: 0, [`${kind}s`]: found });
  };
  const server = await startFakeServer(handler);
  return Object.assign(server, { userAgents });
}
