/**
 * Folders: the user's file hosts' mirrored folders, browsed from the server's mirror, with
 * "queue this folder". The server-wide music folder has no XRPC listing (only Subsonic's
 * getIndexes / getMusicDirectory list it), so it is queued by path instead of browsed.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { procedure, query } from '../../api/xrpc.ts';
import { Empty, ErrorNote, Loading } from '../../components/ui.tsx';
import { Link } from '../../router.tsx';
import { useLibraryKey, useQueueChange, type PlayAt } from './data.ts';

const FILE_HOSTS = ['filehostA', 'filehostB'] as const;
type Host = (typeof FILE_HOSTS)[number];
const isHost = (name: string): name is Host => (FILE_HOSTS as readonly string[]).includes(name);

export function Folders({ onPlay }: { onPlay: PlayAt }) {
  const key = useLibraryKey();
  const connections = useQuery({ queryKey: key('connections'), queryFn: () => query('app.svc.provider.getConnections', {}) });
  const [chosen, setChosen] = useState<Host | null>(null);
  if (connections.isPending) return <Loading label="Loading your file hosts…" />;
  if (connections.isError) return <ErrorNote error={connections.error} />;
  const hosts = connections.data.available.filter(isHost);
  const host = chosen && hosts.includes(chosen) ? chosen : hosts[0];
  const connection = connections.data.connections.find((item) => item.provider === host);
  return (
    <>
      {hosts.length === 0 ? (
        <Empty>
          <p>This server has no file hosts set up, so there are no cloud folders to browse. The server's music folder can still be queued below.</p>
        </Empty>
      ) : (
        <>
          <h2 className="library-section">Your file hosts</h2>
          {hosts.length > 1 && (
            <div className="tabs" role="tablist" aria-label="File hosts">
              {hosts.map((name) => (
                <button key={name} type="button" role="tab" aria-selected={name === host} onClick={() => setChosen(name)}>
                  {name}
                </button>
              ))}
            </div>
          )}
          {host && !connection && (
            <Empty>
              <p>
                {host} is not connected. Connect it in <Link href="/settings">Settings</Link>: its music folder is then mirrored here.
              </p>
            </Empty>
          )}
          {host && connection?.status === 'broken' && (
            <p className="error" role="alert">
              The {host} connection is broken{connection.statusReason ? ` (${connection.statusReason})` : ''}. Reconnect it in <Link href="/settings">Settings</Link>.
            </p>
          )}
          {host && connection && <HostBrowser key={host} host={host} onPlay={onPlay} />}
        </>
      )}
      <QueueByPath />
    </>
  );
}

/** One host's mirror, a folder at a time, from its mirrored folder down. */
function HostBrowser({ host, onPlay }: { host: Host; onPlay: PlayAt }) {
  const key = useLibraryKey();
  const client = useQueryClient();
  const [at, setAt] = useState<string | undefined>(undefined);
  const listing = useQuery({
    queryKey: key('files', host, at),
    queryFn: () => query(host === 'filehostA' ? 'app.svc.filehostA.getFiles' : 'app.svc.filehostB.getFiles', { at }),
  });
  const sync = useMutation({
    mutationFn: () => procedure(host === 'filehostA' ? 'app.svc.filehostA.sync' : 'app.svc.filehostB.sync', {}),
    onSuccess: () => client.invalidateQueries({ queryKey: key('files', host) }),
  });
  const queueFolder = useQueueChange((directory: string) => procedure('app.svc.player.addDirectoryToQueue', { directory }));
  const queueFile = useQueueChange((id: string) => procedure('app.svc.player.addItemsToQueue', { ids: id }));
  const syncButton = (
    <button type="button" className="secondary" onClick={() => sync.mutate()} disabled={sync.isPending}>
      {sync.isPending ? 'Syncing…' : `Sync ${host} now`}
    </button>
  );
  if (listing.isPending) return <Loading label={`Loading ${host}…`} />;
  if (listing.isError) {
    return (
      <div className="stack">
        <ErrorNote error={listing.error} />
        <div>{syncButton}</div>
        {sync.isError && <ErrorNote error={sync.error} />}
      </div>
    );
  }
  const { directory, parentDirectory, directories, files } = listing.data;
  const here = 'id' in directory ? directory : null;
  const play = (start: boolean) =>
    here &&
    queueFolder.mutate(here.id, { onSuccess: (answer) => start && answer.added.length > 0 && onPlay(answer.queue.entry, answer.position) });
  return (
    <div className="stack">
      <h2 className="library-path">{here?.path ?? host}</h2>
      <div className="library-inline">
        {'id' in parentDirectory && (
          <button type="button" className="secondary" onClick={() => setAt(parentDirectory.id)}>
            ↑ Up to {parentDirectory.name || parentDirectory.path}
          </button>
        )}
        <button type="button" onClick={() => play(true)} disabled={!here || queueFolder.isPending}>
          Play this folder
        </button>
        <button type="button" className="secondary" onClick={() => play(false)} disabled={!here || queueFolder.isPending}>
          Queue this folder
        </button>
        {syncButton}
      </div>
      <p className="muted small" aria-live="polite">
        {queueFolder.isSuccess && `Added ${queueFolder.data.added.length} songs (with the subfolders') to the queue.`}
        {queueFile.isSuccess && 'Added to the queue.'}
        {sync.isSuccess && `Synced: ${sync.data.added} added, ${sync.data.updated} updated, ${sync.data.removed} removed.`}
      </p>
      {[queueFolder, queueFile, sync].map((mutation, i) => mutation.isError && <ErrorNote key={i} error={mutation.error} />)}
      {directories.length === 0 && files.length === 0 ? (
        <Empty>
          <p>This folder is empty. Add music to it at {host}, then sync.</p>
        </Empty>
      ) : (
        <ul className="plays">
          {directories.map((folder) => (
            <li key={folder.id} className="play">
              <button type="button" className="link library-folder" onClick={() => setAt(folder.id)}>
                {folder.name}/
              </button>
            </li>
          ))}
          {files.map((file) => (
            <li key={file.id} className="play">
              <div className="play-text">{file.name}</div>
              {file.trackId ? (
                <button type="button" className="link" aria-label={`Add ${file.name} to the queue`} onClick={() => queueFile.mutate(file.trackId)}>
                  Add to queue
                </button>
              ) : (
                <span className="muted small">not a song</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The server-wide music folder, queued by a folder's path in it (there is nothing to browse it with here). */
function QueueByPath() {
  const [path, setPath] = useState('');
  const queue = useQueueChange((directory: string) => procedure('app.svc.player.addDirectoryToQueue', { directory }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    queue.mutate(path.trim() || '/');
  };
  return (
    <form onSubmit={submit} className="card stack library-form library-local">
      <h2>The server's music folder</h2>
      <p className="muted small">
        It cannot be browsed here yet (the server lists it only to Subsonic players). Queue one of its folders by its path, e.g. <code>Artist/Album</code>; leave
        the path empty to queue everything.
      </p>
      <div className="library-inline">
        <label>
          Folder path
          <input value={path} onChange={(event) => setPath(event.target.value)} placeholder="Artist/Album" />
        </label>
        <button type="submit" disabled={queue.isPending}>
          Queue this folder
        </button>
      </div>
      <p className="muted small" aria-live="polite">
        {queue.isSuccess && `Added ${queue.data.added.length} songs to the queue.`}
      </p>
      {queue.isError && <ErrorNote error={queue.error} />}
    </form>
  );
}
