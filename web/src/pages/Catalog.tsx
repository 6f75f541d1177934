/** A song's, an artist's and an album's page: play counts, likes (songs only: the API likes songs), and links between them. */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, type ComponentProps, type ReactNode } from 'react';
import { query } from '../api/xrpc.ts';
import { useSession } from '../api/session.ts';
import { Empty, Loading, PageError, formatDate } from '../components/ui.tsx';
import { useIsAdmin } from '../components/use-admin.ts';
import { Link } from '../router.tsx';
import { AlbumGrid } from '../components/AlbumGrid.tsx';
import { Artwork } from '../components/Artwork.tsx';
import { AlbumLink, ArtistLink, LikeButton, SongList, type Song } from './catalog-parts.tsx';
import { formatDuration, plural } from './catalog-text.ts';
import { songsHref } from './Songs.tsx';
import { LazyEntityStats } from './entity-stats/LazyEntityStats.tsx';

function Counts({ items }: { items: [string, number][] }) {
  return (
    <dl className="counts">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value.toLocaleString()}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Label and value rows for the values present; none at all shows nothing. */
function Details({ rows }: { rows: [string, ReactNode | undefined][] }) {
  const present = rows.filter(([, value]) => value !== undefined && value !== '');
  if (present.length === 0) return null;
  return (
    <dl className="details">
      {present.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Fixing and merging entries: a chunk of its own, fetched for admins only. */
const CatalogAdmin = lazy(() => import('./catalog-admin/CatalogAdmin.tsx'));

function AdminTools(props: ComponentProps<typeof CatalogAdmin>) {
  if (!useIsAdmin()) return null;
  return (
    <Suspense fallback={null}>
      <CatalogAdmin {...props} />
    </Suspense>
  );
}

/** `query` keyed under 'catalog' (a like refreshes them all) and the viewer (likes are theirs). */
function useCatalog<T>(key: string, id: string, load: () => Promise<T>) {
  const session = useSession();
  return useQuery({ queryKey: ['catalog', key, id, session?.did], queryFn: load });
}

export function SongPage({ id }: { id: string }) {
  const song = useCatalog('song', id, () => query('app.svc.song.getSong', { id }));
  if (song.isPending) return <Loading label="Loading the song…" />;
  if (song.isError) return <NotLoaded error={song.error} what="song" />;
  const s = song.data.song;
  return (
    <article>
      <header className="catalog-head">
        <Artwork src={s.albumArt} name={s.album ?? s.title} size={180} />
        <div>
          <p className="kind">Song</p>
          <h1>{s.title}</h1>
          <p>
            <ArtistLink name={s.artist} uri={s.artistUri} />
            {s.album && (
              <>
                {' · '}
                <AlbumLink title={s.album} uri={s.albumUri} />
              </>
            )}
          </p>
          <LikeButton key={s.id} song={s} />
        </div>
      </header>
      <Counts
        items={[
          ['Plays', s.playCount],
          ['Listeners', s.uniqueListeners],
          ['Likes', s.likesCount],
        ]}
      />
      <h2>Details</h2>
      <SongDetails song={s} />
      {s.artistUri && (
        <p>
          <Link href={songsHref({ filter: `artistUri==${s.artistUri}` })}>More songs by {s.artist}</Link>
        </p>
      )}
      <LazyEntityStats kind="song" id={s.id} />
      <AdminTools key={id} kind="song" entry={s} label={`${s.title} by ${s.artist}`} />
    </article>
  );
}

function SongDetails({ song }: { song: Song }) {
  const links = [song.streamingLinkA, song.streamingLinkB, song.streamingLinkC, song.videoLink].filter((link): link is string => !!link?.startsWith('http'));
  return (
    <Details
      rows={[
        ['Duration', song.duration === undefined ? undefined : formatDuration(song.duration)],
        ['Album artist', song.albumArtist],
        [
          'Track',
          song.trackNumber === undefined ? undefined : song.discNumber === undefined ? song.trackNumber : `${song.trackNumber} (disc ${song.discNumber})`,
        ],
        ['Genre', song.genre],
        ['Tags', song.tags.length > 0 ? song.tags.join(', ') : undefined],
        ['Composer', song.composer],
        ['Label', song.label],
        ['Key', song.key],
        ['BPM', song.bpm],
        ['ISRC', song.isrc],
        ['MusicBrainz', song.mbid && <a href={`https://musicbrainz.org/recording/${song.mbid}`}>{song.mbid}</a>],
        [
          'Listen elsewhere',
          links.length === 0
            ? undefined
            : links.map((link) => (
                <span key={link}>
                  <a href={link} rel="noreferrer noopener">
                    {new URL(link).hostname}
                  </a>{' '}
                </span>
              )),
        ],
        [
          'In the catalog since',
          <time key="since" dateTime={song.createdAt}>
            {formatDate(song.createdAt)}
          </time>,
        ],
      ]}
    />
  );
}

export function ArtistPage({ id }: { id: string }) {
  const artist = useCatalog('artist', id, () => query('app.svc.artist.getArtist', { id }));
  if (artist.isPending) return <Loading label="Loading the artist…" />;
  if (artist.isError) return <NotLoaded error={artist.error} what="artist" />;
  const { artist: a, topSongs, topAlbums } = artist.data;
  return (
    <article>
      <header className="catalog-head">
        <Artwork src={a.picture} name={a.name} size={180} />
        <div>
          <p className="kind">Artist</p>
          <h1>{a.name}</h1>
          {a.genres.length > 0 && <p className="muted">{a.genres.join(', ')}</p>}
        </div>
      </header>
      <Counts
        items={[
          ['Plays', a.playCount],
          ['Listeners', a.uniqueListeners],
        ]}
      />
      <h2>Most played songs</h2>
      {topSongs.length > 0 ? <SongList songs={topSongs} /> : <Empty>No plays of {a.name} yet.</Empty>}
      <p>
        <Link href={songsHref({ filter: `artistUri==${a.uri}` })}>All songs by {a.name}</Link>
      </p>
      <h2>Most played albums</h2>
      {topAlbums.length > 0 ? (
        <AlbumGrid
          label="Most played albums"
          ranked
          albums={topAlbums.map((album) => ({
            id: album.id,
            href: `/albums/${album.id}`,
            title: album.title,
            cover: album.albumArt,
            detail: [album.year, plural(album.playCount, 'play')].filter((part) => part !== undefined).join(' · '),
          }))}
        />
      ) : (
        <Empty>No albums of {a.name} in the catalog yet.</Empty>
      )}
      <LazyEntityStats kind="artist" id={a.id} />
      <AdminTools key={id} kind="artist" entry={a} label={a.name} />
    </article>
  );
}

export function AlbumPage({ id }: { id: string }) {
  const album = useCatalog('album', id, () => query('app.svc.album.getAlbum', { id }));
  if (album.isPending) return <Loading label="Loading the album…" />;
  if (album.isError) return <NotLoaded error={album.error} what="album" />;
  const { album: a, tracks } = album.data;
  const discs = new Set(tracks.map((track) => track.discNumber)).size > 1;
  const total = tracks.reduce((sum, track) => sum + (track.duration ?? 0), 0);
  return (
    <article>
      <header className="catalog-head">
        <Artwork src={a.albumArt} name={a.title} size={180} />
        <div>
          <p className="kind">Album</p>
          <h1>{a.title}</h1>
          <p>
            <ArtistLink name={a.artist} uri={a.artistUri} />
            {(a.year ?? a.releaseDate) !== undefined && <span className="muted"> · {a.releaseDate ?? a.year}</span>}
          </p>
        </div>
      </header>
      <Counts
        items={[
          ['Plays', a.playCount],
          ['Listeners', a.uniqueListeners],
          ['Songs', tracks.length],
        ]}
      />
      <Details
        rows={[
          ['Genre', a.genre],
          ['Label', a.label],
          ['Length', total > 0 ? formatDuration(total) : undefined],
        ]}
      />
      <h2>Tracks</h2>
      {tracks.length > 0 ? (
        <SongList
          songs={tracks}
          showAlbum={false}
          lead={(track) =>
            track.trackNumber === undefined
              ? '–'
              : discs && track.discNumber !== undefined
                ? `${track.discNumber}.${track.trackNumber}`
                : String(track.trackNumber)
          }
        />
      ) : (
        <Empty>No songs of this album have been played yet.</Empty>
      )}
      <LazyEntityStats kind="album" id={a.id} />
      <AdminTools key={id} kind="album" entry={a} label={`${a.title} by ${a.artist}`} />
    </article>
  );
}

function NotLoaded({ error, what }: { error: unknown; what: string }) {
  return (
    <PageError error={error} what={what}>
      <p>
        Look for the {what} in <Link href="/search">Search</Link> or browse <Link href="/songs">all songs</Link>.
      </p>
    </PageError>
  );
}
