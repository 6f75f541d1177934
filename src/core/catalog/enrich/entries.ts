/**
 * Enriching one catalog entry: find it at MusicBrainz (by its MBID, else by a search that must
 * score at least MIN_SCORE, so a near-miss leaves it alone), then fill what it lacks. A song's
 * recording also names its artist's and (by title) its album's MBIDs, which later runs use to
 * look those up. Genres are MusicBrainz's genres (else its tags), most voted first. An artist's
 * picture is Deezer's, for the artist of exactly its name (artist-images.ts).
 */
import { sql } from 'kysely';
import type { Database, EnrichmentOutcome } from '../../../toolkit/db/index.ts';
import type { CoverArtClient, DeezerClient, MetadataEntity, MusicBrainzClient } from '../../providers/types.ts';
import { MAX_GENRE_LENGTH } from '../field-rules.ts';
import { albumKey, artistKey } from '../normalize.ts';
import { fetchArtistImage } from './artist-images.ts';
import { fetchAlbumCover } from './covers.ts';
import { fillMissing } from './fill.ts';
import type { PendingAlbum, PendingArtist, PendingSong } from './pending.ts';

/** MusicBrainz's own relevance, 0–100: below this a search result may be another song. */
export const MIN_SCORE = 90;
/** An artist keeps its few most voted genres. */
const ARTIST_GENRES = 5;

export interface Enricher {
  db: Database;
  musicbrainz: MusicBrainzClient;
  coverart: CoverArtClient;
  /** Absent when artist pictures are not looked for (DEEZER_URL set to nothing). */
  deezer?: DeezerClient | undefined;
  publicUrl: string;
}

const byId = (id: string) => sql`t.id = ${id}`;
/** Genre names as a submitted genre may be (tags are free text), most voted first. */
const genresOf = (entity: MetadataEntity) => entity.genres.map((genre) => genre.name).filter((name) => name.length <= MAX_GENRE_LENGTH);
const outcome = (filled: number): EnrichmentOutcome => (filled > 0 ? 'enriched' : 'unchanged');

/** The entity by MBID, else the search's best result when it scores high enough, looked up in full (searches carry no genres). */
async function find(
  musicbrainz: MusicBrainzClient,
  kind: 'recording' | 'release',
  mbid: string | null,
  artist: string,
  title: string,
): Promise<MetadataEntity | null> {
  if (mbid) return musicbrainz.lookup(kind, mbid);
  const [best] = await musicbrainz.search(kind, artist, title);
  return best && best.score >= MIN_SCORE ? musicbrainz.lookup(kind, best.mbid) : null;
}

export async function enrichSong({ db, musicbrainz }: Enricher, song: PendingSong): Promise<EnrichmentOutcome> {
  const recording = await find(musicbrainz, 'recording', song.mbid, song.artistName, song.title);
  if (!recording) return 'no-match';
  let filled = await fillMissing(db, 'tracks', byId(song.id), 'mbid', recording.mbid);
  const [genre] = genresOf(recording);
  if (genre) filled += await fillMissing(db, 'tracks', byId(song.id), 'genre', genre);
  const artist = recording.artists.find((credited) => artistKey(credited.name) === artistKey(song.artistName));
  if (artist && song.artistId) filled += await fillMissing(db, 'artists', byId(song.artistId), 'mbid', artist.mbid);
  const release = song.albumTitle === null ? undefined : recording.releases.find((candidate) => albumKey(candidate.title) === albumKey(song.albumTitle!));
  if (release && song.albumId) filled += await fillMissing(db, 'albums', byId(song.albumId), 'mbid', release.mbid);
  return outcome(filled);
}

export async function enrichAlbum({ db, musicbrainz, coverart, publicUrl }: Enricher, album: PendingAlbum): Promise<EnrichmentOutcome> {
  const release = await find(musicbrainz, 'release', album.mbid, album.artistName, album.title);
  if (!release) return 'no-match';
  let filled = await fillMissing(db, 'albums', byId(album.id), 'mbid', release.mbid);
  const [genre] = genresOf(release);
  if (genre) filled += await fillMissing(db, 'albums', byId(album.id), 'genre', genre);
  if (!album.hasArt) filled += await fetchAlbumCover(db, coverart, publicUrl, album.id, release.mbid);
  return outcome(filled);
}

/** The artist's genres from MusicBrainz: rows filled, or null when MusicBrainz has no such artist. */
async function artistGenres(db: Database, musicbrainz: MusicBrainzClient, artistId: string, mbid: string): Promise<number | null> {
  const found = await musicbrainz.lookup('artist', mbid);
  if (!found) return null;
  const genres = genresOf(found).slice(0, ARTIST_GENRES);
  return genres.length > 0 ? fillMissing(db, 'artists', byId(artistId), 'genres', genres) : 0;
}

/** Genres and picture, each from its own service when missing; 'no-match' when every service asked knew nothing of the artist. */
export async function enrichArtist({ db, musicbrainz, deezer, publicUrl }: Enricher, artist: PendingArtist): Promise<EnrichmentOutcome> {
  const found: (number | null)[] = [];
  if (artist.mbid && !artist.hasGenres) found.push(await artistGenres(db, musicbrainz, artist.id, artist.mbid));
  if (deezer && !artist.hasPicture) found.push(await fetchArtistImage(db, deezer, publicUrl, artist.id, artist.name));
  if (found.length > 0 && found.every((filled) => filled === null)) return 'no-match';
  return outcome(found.reduce<number>((sum, filled) => sum + (filled ?? 0), 0));
}
