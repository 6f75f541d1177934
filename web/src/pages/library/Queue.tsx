/** The play queue (the Library's Queue view and the player bar's drawer): play any song in it, remove songs, clear it, or add it all to a playlist. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { procedure, query } from '../../api/xrpc.ts';
import { Empty, ErrorNote, Loading } from '../../components/ui.tsx';
import { Link } from '../../router.tsx';
import { usePlayer } from '../../player/store.tsx';
import { useLibraryKey, useQueue, useQueueChange } from './data.ts';
import { formatDuration, locate, type Song } from './logic.ts';

export function QueueView() {
  const { playing, playAt: onPlay } = usePlayer();
  const queue = useQueue();
  const remove = useQueueChange((position: number) => procedure('app.svc.player.removeFromQueue', { positions: [position] }));
  const clear = useQueueChange(() => procedure('app.svc.player.clearQueue', undefined));
  if (queue.isPending) return <Loading label="Loading the queue…" />;
  if (queue.isError) return <ErrorNote error={queue.error} />;
  const entries = queue.data.queue.entry;
  if (entries.length === 0) {
    return (
      <Empty>
        <p>
          The queue is empty. Queue a folder in <Link href="/library/folders">Folders</Link>, or open a playlist in{' '}
          <Link href="/library/playlists">Playlists</Link> and add it to the queue.
        </p>
      </Empty>
    );
  }
  const current = playing
    ? locate(
        entries.map((entry) => entry.id),
        { index: playing.index, id: playing.song.id },
      )
    : null;
  return (
    <>
      <div className="library-inline">
        <p className="muted">
          {entries.length} {entries.length === 1 ? 'song' : 'songs'}
        </p>
        <button
          type="button"
          className="secondary danger"
          disabled={clear.isPending}
          onClick={() => confirm('Remove every song from the queue?') && clear.mutate(undefined)}
        >
          Clear the queue
        </button>
      </div>
      {remove.isError && <ErrorNote error={remove.error} />}
      {clear.isError && <ErrorNote error={clear.error} />}
      <ol className="plays">
        {entries.map((song, index) => (
          <li key={`${index}:${song.id}`} className="play" aria-current={index === current ? 'true' : undefined}>
            <div className="play-text">
              <span className="title">
                {index === current && <span className="library-badge">Playing </span>}
                {song.title}
              </span>
              <span className="muted"> · {song.artist}</span>
              <div className="muted small">{[song.album, formatDuration(song.duration)].filter(Boolean).join(' · ')}</div>
            </div>
            <button type="button" className="link" aria-label={`Play ${song.title}`} onClick={() => onPlay(entries, index)}>
              Play
            </button>
            <button
              type="button"
              className="link danger"
              aria-label={`Remove ${song.title} from the queue`}
              disabled={remove.isPending}
              onClick={() => remove.mutate(index)}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <AddToPlaylist songs={entries} />
    </>
  );
}

/** Appends the whole queue to one of the user's playlists. */
function AddToPlaylist({ songs }: { songs: readonly Song[] }) {
  const key = useLibraryKey();
  const client = useQueryClient();
  const playlists = useQuery({ queryKey: key('playlists'), queryFn: () => query('app.svc.library.getPlaylists', {}) });
  const [chosen, setChosen] = useState('');
  const add = useMutation({
    mutationFn: (playlistId: string) => procedure('app.svc.library.updatePlaylist', { playlistId, songIdToAdd: songs.map((song) => song.id) }),
    onSuccess: () => client.invalidateQueries({ queryKey: key() }),
  });
  const list = playlists.data?.playlists.playlist ?? [];
  if (list.length === 0) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = chosen || list[0]!.id;
    add.mutate(target);
  };
  return (
    <form onSubmit={submit} className="library-inline">
      <label>
        Add these songs to a playlist
        <select value={chosen || list[0]!.id} onChange={(event) => setChosen(event.target.value)}>
          {list.map((playlist) => (
            <option key={playlist.id} value={playlist.id}>
              {playlist.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="secondary" disabled={add.isPending}>
        Add
      </button>
      <span className="muted small" aria-live="polite">
        {add.isSuccess ? 'Added.' : ''}
      </span>
      {add.isError && <ErrorNote error={add.error} />}
    </form>
  );
}
