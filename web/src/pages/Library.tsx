/**
 * The signed-in user's library at /library: albums (where it opens), artists, playlists, folders and the play queue as
 * sub-views. They play through the player store (player/store.tsx); the player bar plays on across every page.
 */
import { useSession } from '../api/session.ts';
import { Empty } from '../components/ui.tsx';
import { Link } from '../router.tsx';
import { Albums, Artists } from './library/Browse.tsx';
import { Folders } from './library/Folders.tsx';
import { Playlists } from './library/Playlists.tsx';
import { QueueView } from './library/Queue.tsx';
import { usePlayer } from '../player/store.tsx';

const VIEWS = [
  { id: 'albums', label: 'Albums' },
  { id: 'artists', label: 'Artists' },
  { id: 'playlists', label: 'Playlists' },
  { id: 'folders', label: 'Folders' },
  { id: 'queue', label: 'Queue' },
] as const;

export function Library({ view = 'albums', id }: { view?: string | undefined; id?: string | undefined }) {
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
  return <SignedInLibrary view={view} id={id} />;
}

function SignedInLibrary({ view, id }: { view: string; id: string | undefined }) {
  const { playAt: play } = usePlayer();
  const known = VIEWS.some((item) => item.id === view);
  return (
    <section>
      <h1>Library</h1>
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
      {view === 'queue' && <QueueView />}
      {!known && (
        <p>
          There is no {view} in the library. <Link href="/library">Go to your albums</Link>.
        </p>
      )}
    </section>
  );
}
