import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useSession } from './api/session.ts';
import { PageBoundary } from './components/PageBoundary.tsx';
import { Loading } from './components/ui.tsx';
import { UserMenu } from './components/UserMenu.tsx';
import { Home } from './pages/Home.tsx';
import { Profile } from './pages/Profile.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { PlayerProvider } from './player/store.tsx';
import PAGE_PATTERNS from './pages.json' with { type: 'json' };
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

/**
 * Pages beyond the first load come in their own chunks (charts weigh the most). Their URL patterns
 * live in pages.json, which the server reads too: a path no pattern matches answers 404 (static.ts).
 */
const PAGES: Record<keyof typeof PAGE_PATTERNS, (params: Record<string, string>) => React.ReactNode> = {
  home: () => <Home />,
  signIn: () => <SignIn mode="signin" />,
  signUp: () => <SignIn mode="signup" />,
  profile: ({ handle }) => <Profile handle={handle!} />,
  songs: () => <Songs />,
  song: ({ id }) => <SongPage id={id!} />,
  artist: ({ id }) => <ArtistPage id={id!} />,
  album: ({ id }) => <AlbumPage id={id!} />,
  search: () => <Search />,
  settings: () => <Settings />,
  library: () => <Library />,
  libraryView: ({ view }) => <Library view={view} />,
  libraryItem: ({ view, id }) => <Library view={view} id={id} />,
  wrapped: ({ handle }) => <Wrapped handle={handle!} />,
};

function Page() {
  const { path } = useLocation();
  for (const [name, pattern] of Object.entries(PAGE_PATTERNS)) {
    const params = match(pattern, path);
    if (params) return <>{PAGES[name as keyof typeof PAGE_PATTERNS](params)}</>;
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

/** A page link of the top bar, marked as the current page on its page and the pages below it. */
function NavLink({ href, children }: { href: string; children: React.ReactNode }) {
  const { path } = useLocation();
  const current = path === href || path.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
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
        {session && <NavLink href={`/u/${session.handle}`}>Profile</NavLink>}
        {session && <NavLink href="/library">Library</NavLink>}
        <NavLink href="/songs">Songs</NavLink>
        <NavLink href="/search">Search</NavLink>
        {session && <NavLink href="/settings">Settings</NavLink>}
      </nav>
      <NavSearch />
      <UserMenu />
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
  const { path } = useLocation();
  return (
    <PlayerProvider>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <Navigation />
      <main id="main">
        <PageBoundary path={path}>
          <Suspense fallback={<Loading />}>
            <Page />
          </Suspense>
        </PageBoundary>
      </main>
      <Player />
    </PlayerProvider>
  );
}
