/** Pieces the catalog pages share: a song list whose rows link to the song, its artist and album, and the like button. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { procedure, type Output } from '../api/xrpc.ts';
import { useSession } from '../api/session.ts';
import { Artwork } from '../components/Artwork.tsx';
import { ErrorNote } from '../components/ui.tsx';
import { Link } from '../router.tsx';
import { catalogId, formatDuration, plural } from './catalog-text.ts';

export type Song = Output<'app.svc.song.getSong'>['song'];

/** The artist's name, linked to their page when the song names one. */
export function ArtistLink({ name, uri }: { name: string; uri?: string | undefined }) {
  const id = catalogId('artist', uri);
  return id ? <Link href={`/artists/${id}`}>{name}</Link> : name;
}

export function AlbumLink({ title, uri }: { title: string; uri?: string | undefined }) {
  const id = catalogId('album', uri);
  return id ? <Link href={`/albums/${id}`}>{title}</Link> : title;
}

/** Songs as rows: art, title, artist and album links, duration, plays and the like button. `lead` numbers tracks on an album. */
export function SongList({ songs, lead, showAlbum = true }: { songs: Song[]; lead?: (song: Song) => string; showAlbum?: boolean }) {
  return (
    <ol className="plays catalog-songs">
      {songs.map((song) => (
        <li key={song.id} className="play">
          {lead ? <span className="track-number muted">{lead(song)}</span> : <Artwork src={song.albumArt} name={song.album ?? song.title} />}
          <div className="play-text">
            <Link href={`/songs/${song.id}`} className="title">
              {song.title}
            </Link>
            <span className="muted">
              {' · '}
              <ArtistLink name={song.artist} uri={song.artistUri} />
              {showAlbum && song.album && (
                <>
                  {' · '}
                  <AlbumLink title={song.album} uri={song.albumUri} />
                </>
              )}
            </span>
            <div className="muted small">
              {song.duration !== undefined && <>{formatDuration(song.duration)} · </>}
              {plural(song.playCount, 'play')} · {plural(song.uniqueListeners, 'listener')}
            </div>
          </div>
          <LikeButton song={song} compact />
        </li>
      ))}
    </ol>
  );
}

/**
 * Like / unlike for the signed-in; the count alone for everyone else. The answer's state
 * shows at once, and catalog queries refresh so lists agree.
 */
export function LikeButton({ song, compact = false }: { song: Pick<Song, 'id' | 'title' | 'liked' | 'likesCount'>; compact?: boolean }) {
  const session = useSession();
  const client = useQueryClient();
  const like = useMutation({
    mutationFn: (liked: boolean) => procedure(liked ? 'app.svc.song.unlikeSong' : 'app.svc.song.likeSong', { id: song.id }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['catalog'] }),
  });
  const state = like.data ?? song;
  const count = plural(state.likesCount, 'like');
  if (!session) {
    return compact ? (
      <span className="muted small likes">{count}</span>
    ) : (
      <p className="muted">
        {count}. <Link href="/signin">Sign in</Link> to like it.
      </p>
    );
  }
  return (
    <span className="likes">
      <button
        type="button"
        className={compact ? 'link' : state.liked ? '' : 'secondary'}
        aria-pressed={state.liked}
        disabled={like.isPending}
        onClick={() => like.mutate(state.liked)}
      >
        {/* Named by its visible words, with the song's title unseen in a list's compact one; aria-pressed says whether it is liked. */}
        <span aria-hidden="true">{state.liked ? '♥' : '♡'} </span>
        {compact ? (
          <>
            <span className="visually-hidden">Like {song.title}, </span>
            {state.likesCount}
            <span className="visually-hidden">{state.likesCount === 1 ? ' like' : ' likes'}</span>
          </>
        ) : (
          `${state.liked ? 'Liked' : 'Like'} · ${count}`
        )}
      </button>
      {like.isError && <ErrorNote error={like.error} />}
    </span>
  );
}
