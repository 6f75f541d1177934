/**
 * The library by artist and album: artists → their albums (a grid of covers) → an album's songs,
 * with play and "Add to queue". Lists are what the user can play (the music folder and their file
 * hosts), a page at a time with "Load more".
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { procedure, query, type Output } from '../../api/xrpc.ts';
import { AlbumGrid } from '../../components/AlbumGrid.tsx';
import { Artwork } from '../../components/Artwork.tsx';
import { Empty, ErrorNote, Loading } from '../../components/ui.tsx';
import { Link } from '../../router.tsx';
import { useLibraryKey, useQueueChange, type PlayAt } from './data.ts';
import { formatDuration } from './logic.ts';

const PAGE = 50;
type Album = Output<'app.svc.library.getAlbums'>['albums']['album'][number];

/** Offset pages of a library list: a page shorter than PAGE is the last. */
function usePages<T>(key: unknown[], load: (offset: number) => Promise<T[]>) {
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => load(pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length < PAGE ? undefined : pages.length * PAGE),
  });
}

/** A paged list: loading, errors and the empty state in words, then the items (as `show` lays them out) and "Load more". */
function PagedList<T>({
  pages,
  label,
  empty,
  show,
}: {
  pages: ReturnType<typeof usePages<T>>;
  label: string;
  empty: ReactNode;
  show: (items: T[]) => ReactNode;
}) {
  if (pages.isPending) return <Loading label={`Loading ${label}…`} />;
  if (pages.isError) return <ErrorNote error={pages.error} />;
  const items = pages.data.pages.flat();
  if (items.length === 0) return <Empty>{empty}</Empty>;
  return (
    <>
      {show(items)}
      {pages.hasNextPage && (
        <button type="button" className="secondary" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}

const NOTHING_PLAYABLE = (
  <p>
    Nothing to play yet: the server's music folder is empty or not scanned, and no file host is connected. Connect one in <Link href="/settings">Settings</Link>
    , or browse <Link href="/library/folders">Folders</Link>.
  </p>
);

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export function Artists({ id }: { id: string | undefined }) {
  return id ? <AlbumIndex artistId={id} /> : <ArtistIndex />;
}

function ArtistIndex() {
  const key = useLibraryKey();
  const pages = usePages(key('artists'), async (offset) => (await query('app.svc.library.getArtists', { limit: PAGE, offset })).artists.artist);
  return (
    <PagedList
      pages={pages}
      label="artists"
      empty={NOTHING_PLAYABLE}
      show={(artists) => (
        <ul className="plays" aria-label="artists">
          {artists.map((artist) => (
            <li key={artist.id} className="play">
              <Artwork src={artist.picture} name={artist.name} />
              <div className="play-text">
                <Link href={`/library/artists/${artist.id}`} className="title">
                  {artist.name}
                </Link>
                <div className="muted small">
                  {plural(artist.albumCount, 'album')} · {plural(artist.songCount, 'song')}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    />
  );
}

export function Albums({ id, onPlay }: { id: string | undefined; onPlay: PlayAt }) {
  return id ? <AlbumSongs id={id} onPlay={onPlay} /> : <AlbumIndex />;
}

/** Every album, or one artist's (by year). */
function AlbumIndex({ artistId }: { artistId?: string }) {
  const key = useLibraryKey();
  const pages = usePages(key('albums', artistId), async (offset) => (await query('app.svc.library.getAlbums', { limit: PAGE, offset, artistId })).albums.album);
  const artist = pages.data?.pages[0]?.[0]?.artist;
  return (
    <>
      {artistId && (
        <>
          <p>
            <Link href="/library/artists">← All artists</Link>
          </p>
          {artist && <h2>{artist}</h2>}
        </>
      )}
      <PagedList
        pages={pages}
        label="albums"
        empty={artistId ? <p>None of this artist's albums is in your library.</p> : NOTHING_PLAYABLE}
        show={(albums) => <AlbumGrid label="albums" albums={albums.map((album) => albumCard(album, !artistId))} />}
      />
    </>
  );
}

/** An album's card; the artist is left out on the artist's own list. */
const albumCard = (album: Album, withArtist: boolean) => ({
  id: album.id,
  href: `/library/albums/${album.id}`,
  title: album.name,
  artist: withArtist ? album.artist : undefined,
  cover: album.albumArt,
  detail: [album.year, plural(album.songCount, 'song'), formatDuration(album.duration)].filter(Boolean).join(' · '),
});

function AlbumSongs({ id, onPlay }: { id: string; onPlay: PlayAt }) {
  const key = useLibraryKey();
  const album = useQuery({ queryKey: key('album', id), queryFn: () => query('app.svc.library.getAlbum', { id }) });
  const enqueue = useQueueChange((ids: string[]) => procedure('app.svc.player.addItemsToQueue', { ids }));
  if (album.isPending) return <Loading label="Loading the album…" />;
  if (album.isError) return <ErrorNote error={album.error} />;
  const { name, artist, artistId, year, albumArt, song: songs } = album.data.album;
  /** Appends the songs to the queue; with `start`, plays the first of them there. */
  const queueSongs = (ids: string[], start: boolean) => enqueue.mutate(ids, { onSuccess: ({ queue, position }) => start && onPlay(queue.entry, position) });
  const all = songs.map((song) => song.id);
  return (
    <>
      <p>{artistId ? <Link href={`/library/artists/${artistId}`}>← {artist}'s albums</Link> : <Link href="/library/albums">← All albums</Link>}</p>
      <div className="library-now">
        <Artwork src={albumArt} name={name} size={56} />
        <div>
          <h2>{name}</h2>
          <p className="muted">{[artist, year, plural(songs.length, 'song')].filter(Boolean).join(' · ')}</p>
        </div>
      </div>
      <div className="library-inline">
        <button type="button" onClick={() => queueSongs(all, true)} disabled={enqueue.isPending}>
          Play
        </button>
        <button type="button" className="secondary" onClick={() => queueSongs(all, false)} disabled={enqueue.isPending}>
          Add to queue
        </button>
      </div>
      <span className="muted small" aria-live="polite">
        {enqueue.isSuccess ? `Added ${plural(enqueue.variables.length, 'song')} to the queue.` : ''}
      </span>
      {enqueue.isError && <ErrorNote error={enqueue.error} />}
      <ol className="plays">
        {songs.map((song) => (
          <li key={song.id} className="play">
            <div className="play-text">
              <span className="title">{song.title}</span>
              <span className="muted"> · {song.artist}</span>
              <div className="muted small">{[song.track && `track ${song.track}`, formatDuration(song.duration)].filter(Boolean).join(' · ')}</div>
            </div>
            <div className="library-row-actions">
              <button type="button" className="link" aria-label={`Play ${song.title}`} onClick={() => queueSongs([song.id], true)}>
                Play
              </button>
              <button type="button" className="link" aria-label={`Add ${song.title} to the queue`} onClick={() => queueSongs([song.id], false)}>
                Add to queue
              </button>
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}
