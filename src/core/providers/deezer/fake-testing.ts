/**
 * A stand-in for Deezer's public API on loopback: `/search/artist?q=` answers, as Deezer does, every
 * artist whose name contains the query (case aside), most fans first, with picture URLs that point
 * at `/images/artist/<hash>/<size>.jpg` on the same server in place of Deezer's image CDN. An
 * artist without a picture gets Deezer's placeholder, the same path with an empty hash.
 */
import { sendJson, startFakeServer, type FakeServer } from '../fake/server.ts';
import type { CoverImage } from '../types.ts';

export interface FakeDeezerArtist {
  id: number;
  name: string;
  nbFan?: number;
  /** Served at the picture URLs; none: the placeholder. */
  picture?: CoverImage;
}

const SIZES = { picture_small: '56x56', picture_medium: '250x250', picture_big: '500x500', picture_xl: '1000x1000' };

/** A picture's hash, as Deezer's 32 hex digits. */
const hashOf = (id: number) => id.toString(16).padStart(32, '0');

function wireArtist(artist: FakeDeezerArtist, origin: string) {
  const hash = artist.picture ? hashOf(artist.id) : '';
  const pictures = Object.fromEntries(Object.entries(SIZES).map(([field, size]) => [field, `${origin}/images/artist/${hash}/${size}-000000-80-0-0.jpg`]));
  return {
    id: artist.id,
    name: artist.name,
    link: `https://www.deezer.com/artist/${artist.id}`,
    picture: `${origin}/artist/${artist.id}/image`,
    ...pictures,
    nb_album: 1,
    nb_fan: artist.nbFan ?? 0,
    radio: true,
    tracklist: `${origin}/artist/${artist.id}/top?limit=50`,
    type: 'artist',
  };
}

export async function startFakeDeezer(artists: FakeDeezerArtist[]): Promise<FakeServer> {
  return startFakeServer(async (request, response, url) => {
    const origin = `http://${request.headers.host}`;
    if (url.pathname === '/search/artist') {
      const query = (url.searchParams.get('q') ?? '').toLowerCase();
      const limit = Number(url.searchParams.get('limit') ?? 25);
      const found = artists.filter((artist) => artist.name.toLowerCase().includes(query)).sort((left, right) => (right.nbFan ?? 0) - (left.nbFan ?? 0));
      return sendJson(response, 200, { data: found.slice(0, limit).map((artist) => wireArtist(artist, origin)), total: found.length });
    }
    const image = /^\/images\/artist\/([0-9a-f]{32})\/\d+x\d+-000000-80-0-0\.jpg$/.exec(url.pathname);
    const picture = image ? artists.find((artist) => artist.picture && hashOf(artist.id) === image[1])?.picture : undefined;
    // Deezer answers an unknown path with its error object, HTTP 200 all the same.
    if (!picture) return sendJson(response, image ? 404 : 200, { error: { type: 'DataException', message: 'no data', code: 800 } });
    response.writeHead(200, { 'content-type': picture.contentType, 'content-length': String(picture.data.length) });
    response.end(picture.data);
  });
}
