/** Playlists: the user's list and a form to start one; one playlist to play, rename, reorder, trim or delete. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSession } from '../../api/session.ts';
import { procedure, query, type Input, type Output } from '../../api/xrpc.ts';
import { Empty, ErrorNote, Loading } from '../../components/ui.tsx';
import { Link, navigate } from '../../router.tsx';
import { useLibraryKey, useQueue, useQueueChange, type PlayAt } from './data.ts';
import { formatDuration, moveChange, reorder, type Song } from './logic.ts';

export function Playlists({ id, onPlay }: { id: string | undefined; onPlay: PlayAt }) {
  return id ? <PlaylistDetail id={id} onPlay={onPlay} /> : <PlaylistIndex />;
}

function PlaylistIndex() {
  const key = useLibraryKey();
  const playlists = useQuery({ queryKey: key('playlists'), queryFn: () => query('app.svc.library.getPlaylists', {}) });
  return (
    <>
      <CreatePlaylist />
      {playlists.isPending ? (
        <Loading label="Loading playlists…" />
      ) : playlists.isError ? (
        <ErrorNote error={playlists.error} />
      ) : playlists.data.playlists.playlist.length === 0 ? (
        <Empty>
          <p>
            No playlists yet. Put songs in the queue (from <Link href="/library/folders">Folders</Link>), then create a playlist above from them; or create an
            empty one and add the queue to it from <Link href="/library/queue">Queue</Link>.
          </p>
        </Empty>
      ) : (
        <ul className="plays">
          {playlists.data.playlists.playlist.map((playlist) => (
            <li key={playlist.id} className="play">
              <div className="play-text">
                <Link href={`/library/playlists/${playlist.id}`} className="title">
                  {playlist.name}
                </Link>
                <div className="muted small">{summary(playlist)}</div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const summary = (playlist: Output<'app.svc.library.getPlaylists'>['playlists']['playlist'][number]) =>
  `${playlist.songCount} ${playlist.songCount === 1 ? 'song' : 'songs'} · ${formatDuration(playlist.duration)} · ${playlist.public ? 'public' : 'private'}`;

function CreatePlaylist() {
  const key = useLibraryKey();
  const client = useQueryClient();
  const queued = useQueue().data?.queue.entry ?? [];
  const [name, setName] = useState('');
  const [fromQueue, setFromQueue] = useState(false);
  const create = useMutation({
    mutationFn: () => procedure('app.svc.library.createPlaylist', { name: name.trim(), songId: fromQueue ? queued.map((song) => song.id) : [] }),
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: key('playlists') });
      navigate(`/library/playlists/${answer.playlist.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate();
  };
  return (
    <form onSubmit={submit} className="card stack library-form">
      <div className="library-inline">
        <label>
          New playlist
          <input value={name} onChange={(event) => setName(event.target.value)} maxLength={1024} placeholder="Name" />
        </label>
        <button type="submit" disabled={create.isPending || !name.trim()}>
          Create
        </button>
      </div>
      {queued.length > 0 && (
        <label className="library-check">
          <input type="checkbox" checked={fromQueue} onChange={(event) => setFromQueue(event.target.checked)} />
          Start it with the {queued.length} {queued.length === 1 ? 'song' : 'songs'} in the queue
        </label>
      )}
      {create.isError && <ErrorNote error={create.error} />}
    </form>
  );
}

type Change = Omit<Input<'app.svc.library.updatePlaylist'>, 'playlistId'>;
type Detail = Output<'app.svc.library.getPlaylist'>;

function PlaylistDetail({ id, onPlay }: { id: string; onPlay: PlayAt }) {
  const session = useSession();
  const key = useLibraryKey();
  const client = useQueryClient();
  const playlist = useQuery({ queryKey: key('playlist', id), queryFn: () => query('app.svc.library.getPlaylist', { id }) });
  // A move shows at once (the new order is known); the server's answer then confirms or undoes it.
  // Changes run one after another (scope), as each one's indexes assume the ones before it applied.
  const updateKey = key('playlist', id, 'update');
  const update = useMutation({
    mutationKey: updateKey,
    scope: { id: `playlist-${id}` },
    mutationFn: ({ change }: { change: Change; entry?: Song[] }) => procedure('app.svc.library.updatePlaylist', { playlistId: id, ...change }),
    onMutate: ({ entry }) => {
      const before = client.getQueryData<Detail>(key('playlist', id));
      if (entry && before) client.setQueryData<Detail>(key('playlist', id), { ...before, playlist: { ...before.playlist, entry } });
      return before;
    },
    onError: (_error, _change, before) => before && client.setQueryData(key('playlist', id), before),
    // Refetching before the last queued change is done would briefly show an older order.
    onSettled: () => client.isMutating({ mutationKey: updateKey }) <= 1 && client.invalidateQueries({ queryKey: key() }),
  });
  const remove = useMutation({
    mutationFn: () => procedure('app.svc.library.deletePlaylist', { id }),
    onSuccess: () => {
      client.removeQueries({ queryKey: key('playlist', id) });
      void client.invalidateQueries({ queryKey: key('playlists') });
      navigate('/library/playlists', true);
    },
  });
  // After a move or a removal the keyboard stays where it was: focus goes, once the new list is shown, to the first of these buttons there.
  const focusNext = useRef<string[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the focus moves when a new list is shown, which is what playlist.data changing means
  useEffect(() => {
    const target = focusNext.current.map((id) => document.getElementById(id) as HTMLButtonElement | null).find((button) => button && !button.disabled);
    if (target) target.focus();
    focusNext.current = [];
  }, [playlist.data]);
  const enqueue = useQueueChange((ids: string[]) => procedure('app.svc.player.addItemsToQueue', { ids }));
  if (playlist.isPending) return <Loading label="Loading the playlist…" />;
  if (playlist.isError) return <ErrorNote error={playlist.error} />;
  const list = playlist.data.playlist;
  const own = list.owner === session?.handle;
  const ids = list.entry.map((song) => song.id);
  /** Appends the playlist to the queue and, with `start`, plays its first song there. */
  const queueIt = (start: boolean) => enqueue.mutate(ids, { onSuccess: ({ queue, position }) => start && onPlay(queue.entry, position) });
  const move = (from: number, to: number, rowKey: string) => {
    const [same, other] = to < from ? ['up', 'down'] : ['down', 'up'];
    focusNext.current = [`${same}-${rowKey}`, `${other}-${rowKey}`];
    update.mutate({ change: moveChange(ids, from, to), entry: reorder(list.entry, from, to) });
  };
  const removeAt = (index: number) => {
    const entry = list.entry.filter((_, i) => i !== index);
    const keys = rowKeys(entry.map((song) => song.id));
    focusNext.current = [`remove-${keys[index]}`, `remove-${keys[index - 1]}`, 'playlist-back'];
    update.mutate({ change: { songIndexToRemove: [index] }, entry });
  };
  return (
    <>
      <p>
        <Link href="/library/playlists" id="playlist-back">
          ← All playlists
        </Link>
      </p>
      <h2>{list.name}</h2>
      <p className="muted">
        {summary(list)} · by {list.owner}
      </p>
      {list.comment && <p>{list.comment}</p>}
      <div className="library-inline">
        <button type="button" id="playlist-play" onClick={() => queueIt(true)} disabled={ids.length === 0 || enqueue.isPending}>
          Play
        </button>
        <button type="button" className="secondary" onClick={() => queueIt(false)} disabled={ids.length === 0 || enqueue.isPending}>
          Add to queue
        </button>
        {own && <Rename name={list.name} onRename={(name) => update.mutate({ change: { name } })} />}
        {own && (
          <button
            type="button"
            className="secondary danger"
            disabled={remove.isPending}
            onClick={() => confirm(`Delete the playlist “${list.name}”?`) && remove.mutate()}
          >
            Delete playlist
          </button>
        )}
      </div>
      <span className="muted small" aria-live="polite">
        {enqueue.isSuccess ? `Added ${ids.length} ${ids.length === 1 ? 'song' : 'songs'} to the queue.` : ''}
      </span>
      {[enqueue, update, remove].map((mutation, i) => mutation.isError && <ErrorNote key={i} error={mutation.error} />)}
      {list.entry.length === 0 ? (
        <Empty>
          <p>
            This playlist has no songs. Put songs in the queue, then add them here from <Link href="/library/queue">Queue</Link>.
          </p>
        </Empty>
      ) : (
        <ol className="plays">
          {rowKeys(ids).map((rowKey, index) => {
            const song = list.entry[index]!;
            const label = `${song.title} (number ${index + 1})`;
            return (
              <li key={rowKey} className="play">
                <div className="play-text">
                  <span className="title">{song.title}</span>
                  <span className="muted"> · {song.artist}</span>
                  <div className="muted small">{[song.album, formatDuration(song.duration)].filter(Boolean).join(' · ')}</div>
                </div>
                {own && (
                  <div className="library-row-actions">
                    <button
                      type="button"
                      className="link"
                      id={`up-${rowKey}`}
                      aria-label={`Move ${label} up`}
                      disabled={index === 0}
                      onClick={() => move(index, index - 1, rowKey)}
                    >
                      ↑
                    </button>
                    <button
                      type="button"
                      className="link"
                      id={`down-${rowKey}`}
                      aria-label={`Move ${label} down`}
                      disabled={index === ids.length - 1}
                      onClick={() => move(index, index + 1, rowKey)}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      className="link danger"
                      aria-label={`Remove ${label} from the playlist`}
                      id={`remove-${rowKey}`}
                      onClick={() => removeAt(index)}
                    >
                      Remove
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}

/** Row keys that follow a song as it moves (a song may be listed twice: its nth time is its own row). */
function rowKeys(ids: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return ids.map((id) => {
    const nth = (seen.get(id) ?? 0) + 1;
    seen.set(id, nth);
    return `${id}-${nth}`;
  });
}

function Rename({ name, onRename }: { name: string; onRename: (name: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name);
  if (!editing) {
    return (
      <button
        type="button"
        className="secondary"
        onClick={() => {
          setValue(name);
          setEditing(true);
        }}
      >
        Rename
      </button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() && value.trim() !== name) onRename(value.trim());
    setEditing(false);
  };
  return (
    <form onSubmit={submit} className="library-inline">
      <label>
        Name
        {/* biome-ignore lint/a11y/noAutofocus: the field appears because Rename was pressed, so the keyboard goes to it */}
        <input value={value} onChange={(event) => setValue(event.target.value)} maxLength={1024} autoFocus />
      </label>
      <button type="submit">Save</button>
      <button type="button" className="secondary" onClick={() => setEditing(false)}>
        Cancel
      </button>
    </form>
  );
}
