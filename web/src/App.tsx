import { lazy, Suspense, useState, type FormEvent } from 'react';
import { signOut } from './api/routes.ts';
import { useSession } from './api/session.ts';
import { Loading } from './components/ui.tsx';
import { Home } from './pages/Home.tsx';
import { Profile } from './pages/Profile.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { PlayerProvider } from './player/store.tsx';
import { Link, match, navigate, useLocation } from './router.tsx';

const Songs = lazy(() => import('./pages/Songs.tsx').then((m) => ({ default: m.Songs })));
const SongPage = lazy(() => import('./pages/Catalog.tsx').then((m) => ({ default: m.SongPage })));
const ArtistPage = lazy(() => import('./pages/Catalog.tsx').then((m) => ({ default: m.ArtistPage })));
const AlbumPage = lazy(() => import('./pages/Catalog.tsx').then((m) => ({ default: m.AlbumPage })));
const Search = lazy(() => import('./pages/Search.tsx').then((m) => ({ default: m.Search })));
const Settings = lazy(() => import('./pages/settings/Settings.tsx').then((m) => ({ default: m.Settings })));
const Library = lazy(() => import('./pages/Library.tsx').then((m) => ({ default: m.Library })));
const PlayerBar = lazy(() => import('./player/PlayerBar.tsx').then((m) => ({ default: m.PlayerBar })));
const Wrapped = lazy(() => import('./pages/Wrapped.tsx').then((m) => ({ default: m.Wrapped })));

/** Pages beyond the first load come in their own chunks (charts weigh the most). */
const PAGES: { pattern: string; render: (params: Record<string, string>) => React.ReactNode }[] = [
  { pattern: '/', render: () => <Home /> },
  { pattern: '/signin', render: () => <SignIn mode="signin" /> },
  { pattern: '/signup', render: () => <SignIn mode="signup" /> },
  { pattern: '/u/:handle', render: ({ handle }) => <Profile handle={handle!} /> },
  { pattern: '/songs', render: () => <Songs /> },
  { pattern: '/songs/:id', render: ({ id }) => <SongPage id={id!} /> },
  { pattern: '/artists/:id', render: ({ id }) => <ArtistPage id={id!} /> },
  { pattern: '/albums/:id', render: ({ id }) => <AlbumPage id={id!} /> },
  { pattern: '/search', render: () => <Search /> },
  { pattern: '/settings', render: () => <Settings /> },
  { pattern: '/library', render: () => <Library /> },
  { pattern: '/library/:view', render: ({ view }) => <Library view={view} /> },
  { pattern: '/library/:view/:id', render: ({ view, id }) => <Library view={view} id={id} /> },
  { pattern: '/u/:handle/wrapped', render: ({ handle }) => <Wrapped handle={handle!} /> },
];

function Page() {
  const { path } = useLocation();
  for (const page of PAGES) {
    const params = match(page.pattern, path);
    if (params) return <>{page.render(params)}</>;
  }
  return (
    <section>
      <h1>Not found</h1>
      <p>
        There is no page at {path}. <Link href="/">Go home</Link>.
      </p>
    </section>
  );
}

/** The search box of the top bar: answers open at /search?q=… (pages/Search.tsx). */
function NavSearch() {
  const [q, setQ] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!q.trim()) return;
    navigate(`/search?${new URLSearchParams({ q: q.trim() })}`);
    setQ('');
  };
  return (
    <form className="nav-search" role="search" aria-label="Search" onSubmit={submit}>
      <input
        type="search"
        aria-label="Search artists, albums, songs and people"
        placeholder="Search…"
        maxLength={200}
        value={q}
        onChange={(event) => setQ(event.target.value)}
      />
    </form>
  );
}

function Navigation() {
  const session = useSession();
  return (
    <header className="top">
      <nav aria-label="Main">
        <Link href="/" className="brand">
          Earshot
        </Link>
        {session && <Link href={`/u/${session.handle}`}>Profile</Link>}
        <Link href="/songs">Songs</Link>
        <Link href="/search">Search</Link>
        {session && <Link href="/settings">Settings</Link>}
        {session && <Link href="/library">Library</Link>}
      </nav>
      <NavSearch />
      <div className="account">
        {session ? (
          <button type="button" className="secondary" onClick={() => void signOut().then(() => navigate('/'))}>
            Sign out
          </button>
        ) : (
          <>
            <Link href="/signin">Sign in</Link>
            <Link href="/signup" className="button">
              Sign up
            </Link>
          </>
        )}
      </div>
    </header>
  );
}

/** The player bar, outside the routed page so music plays on across pages; signed in only (it streams as the user). */
function Player() {
  const session = useSession();
  if (!session) return null;
  return (
    <Suspense fallback={null}>
      <PlayerBar key={session.did} />
    </Suspense>
  );
}

export function App() {
  return (
    <PlayerProvider>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <Navigation />
      <main id="main">
        <Suspense fallback={<Loading />}>
          <Page />
        </Suspense>
      </main>
      <Player />
    </PlayerProvider>
  );
}
