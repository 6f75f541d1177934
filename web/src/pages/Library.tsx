/**
 * The signed-in user's library at /library: playlists, artists and albums, folders and the play queue as sub-views,
 * with the player above them. The page stays mounted across its sub-views, so music keeps playing
 * while moving between them (leaving /library stops it).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSession, type SignedIn } from '../api/session.ts';
import { Empty } from '../components/ui.tsx';
import { Link } from '../router.tsx';
import { Albums, Artists } from './library/Browse.tsx';
import { useQueue, type PlayAt } from './library/data.ts';
import { Folders } from './library/Folders.tsx';
import { Player, type Playing } from './library/Player.tsx';
import { Playlists } from './library/Playlists.tsx';
import { QueueView } from './library/Queue.tsx';

const VIEWS = [
  { id: 'playlists', label: 'Playlists' },
  { id: 'artists', label: 'Artists' },
  { id: 'albums', label: 'Albums' },
  { id: 'folders', label: 'Folders' },
  { id: 'queue', label: 'Queue' },
] as const;

export function Library({ view = 'playlists', id }: { view?: string | undefined; id?: string | undefined }) {
  const session = useSession();
  if (!session) {
    return (
      <section>
        <h1>Library</h1>
        <Empty>
          <p>
            Your playlists, folders, play queue and player are here once you are signed in. <Link href="/signin">Sign in</Link> or{' '}
            <Link href="/signup">create an account</Link>.
          </p>
        </Empty>
      </section>
    );
  }
  // A new user in this tab starts with a fresh player.
  return <SignedInLibrary key={session.did} session={session} view={view} id={id} />;
}

function SignedInLibrary({ session, view, id }: { session: SignedIn; view: string; id: string | undefined }) {
  const queue = useQueue();
  const [playing, setPlaying] = useState<Playing | null>(null);
  const play = useCallback<PlayAt>((entries, index) => {
    const song = entries[index];
    if (song) setPlaying((last) => ({ index, song, play: (last?.play ?? 0) + 1, autoplay: true }));
  }, []);
  // The queue's current song (another player's, or this one's before a reload) is where to resume, without starting it.
  const resumed = useRef(false);
  useEffect(() => {
    const data = queue.data?.queue;
    if (resumed.current || !data) return;
    resumed.current = true;
    const song = data.currentIndex === undefined ? undefined : data.entry[data.currentIndex];
    if (song) setPlaying((last) => last ?? { index: data.currentIndex!, song, play: 1, autoplay: false });
  }, [queue.data]);
  const known = VIEWS.some((item) => item.id === view);
  return (
    <section>
      <h1>Library</h1>
      <Player session={session} entries={queue.data?.queue.entry ?? []} playing={playing} onPlay={play} />
      <nav className="tabs library-tabs" aria-label="Library">
        {VIEWS.map((item) => (
          <Link key={item.id} href={`/library/${item.id}`} aria-current={item.id === view ? 'page' : undefined}>
            {item.label}
          </Link>
        ))}
      </nav>
      {view === 'playlists' && <Playlists id={id} onPlay={play} />}
      {view === 'artists' && <Artists id={id} />}
      {view === 'albums' && <Albums id={id} onPlay={play} />}
      {view === 'folders' && <Folders onPlay={play} />}
      {view === 'queue' && <QueueView playing={playing} onPlay={play} />}
      {!known && (
        <p>
          There is no {view} in the library. <Link href="/library">Go to your playlists</Link>.
        </p>
      )}
    </section>
  );
}
