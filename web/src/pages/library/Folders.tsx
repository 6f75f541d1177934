/**
 * Folders: the server's music folder and the user's file hosts' mirrored folders, each browsed a
 * folder at a time from the server's copy of it (getDirectory, getFiles), with "queue this folder".
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { procedure, query, type Output } from '../../api/xrpc.ts';
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
      <h2 className="library-section">The server's music folder</h2>
      <MusicFolderBrowser onPlay={onPlay} />
      {hosts.length === 0 ? (
        <Empty>
          <p>This server has no file hosts set up, so there are no cloud folders to browse.</p>
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
              The {host} connection is broken{connection.statusReason ? ` (${connection.statusReason})` : ''}. Reconnect it in{' '}
              <Link href="/settings">Settings</Link>.
            </p>
          )}
          {host && connection && <HostBrowser key={host} host={host} onPlay={onPlay} />}
        </>
      )}
    </>
  );
}

/** One host's mirror, a folder at a time, from its mirrored folder down, with "sync now". */
function HostBrowser({ host, onPlay }: { host: Host; onPlay: PlayAt }) {
  const key = useLibraryKey();
  const client = useQueryClient();
  const sync = useMutation({
    mutationFn: () => procedure(host === 'filehostA' ? 'app.svc.filehostA.sync' : 'app.svc.filehostB.sync', {}),
    onSuccess: () => client.invalidateQueries({ queryKey: key('files', host) }),
  });
  return (
    <FolderBrowser
      name={host}
      listKey={key('files', host)}
      load={(at) => query(host === 'filehostA' ? 'app.svc.filehostA.getFiles' : 'app.svc.filehostB.getFiles', { at })}
      onPlay={onPlay}
      emptyHint={`Add music to it at ${host}, then sync.`}
      actions={
        <button type="button" className="secondary" onClick={() => sync.mutate()} disabled={sync.isPending}>
          {sync.isPending ? 'Syncing…' : `Sync ${host} now`}
        </button>
      }
      note={
        <>
          {sync.isSuccess && `Synced: ${sync.data.added} added, ${sync.data.updated} updated, ${sync.data.removed} removed.`}
          {sync.isError && <ErrorNote error={sync.error} />}
        </>
      }
    />
  );
}

/** The server's music folder, from its last scan (the server says so when there is none). */
function MusicFolderBrowser({ onPlay }: { onPlay: PlayAt }) {
  const key = useLibraryKey();
  return (
    <FolderBrowser
      name="Music folder"
      listKey={key('music-folder')}
      load={(at) => query('app.svc.library.getDirectory', { at })}
      onPlay={onPlay}
      emptyHint="Put music in the server's music folder; it is scanned when the server starts."
    />
  );
}

/** What every folder listing has (the file hosts' getFiles add fields of their own). */
type Listing = Output<'app.svc.library.getDirectory'>;

/** A folder at a time: up, into subfolders, play or queue the folder (with its subfolders), or queue one song. */
function FolderBrowser({
  name,
  listKey,
  load,
  onPlay,
  emptyHint,
  actions,
  note,
}: {
  name: string;
  listKey: unknown[];
  load: (at: string | undefined) => Promise<Listing>;
  onPlay: PlayAt;
  emptyHint: string;
  actions?: ReactNode;
  note?: ReactNode;
}) {
  const [at, setAt] = useState<string | undefined>(undefined);
  const listing = useQuery({ queryKey: [...listKey, at], queryFn: () => load(at) });
  const queueFolder = useQueueChange((directory: string) => procedure('app.svc.player.addDirectoryToQueue', { directory }));
  const queueFile = useQueueChange((id: string) => procedure('app.svc.player.addItemsToQueue', { ids: id }));
  if (listing.isPending) return <Loading label={`Loading ${name}…`} />;
  if (listing.isError) {
    return (
      <div className="stack">
        <ErrorNote error={listing.error} />
        {actions && <div>{actions}</div>}
        {note}
      </div>
    );
  }
  const { directory, parentDirectory, directories, files } = listing.data;
  const here = 'id' in directory ? directory : null;
  const play = (start: boolean) =>
    here && queueFolder.mutate(here.id, { onSuccess: (answer) => start && answer.added.length > 0 && onPlay(answer.queue.entry, answer.position) });
  return (
    <div className="stack">
      <h2 className="library-path">
        {name}: {here?.path ?? '/'}
      </h2>
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
        {actions}
      </div>
      <p className="muted small" aria-live="polite">
        {queueFolder.isSuccess && `Added ${queueFolder.data.added.length} songs (with the subfolders') to the queue.`}
        {queueFile.isSuccess && 'Added to the queue.'}
      </p>
      {note}
      {[queueFolder, queueFile].map((mutation, i) => mutation.isError && <ErrorNote key={i} error={mutation.error} />)}
      {directories.length === 0 && files.length === 0 ? (
        <Empty>
          <p>This folder is empty. {emptyHint}</p>
        </Empty>
      ) : (
        <ul className="plays" aria-label={`${name} folder`}>
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
