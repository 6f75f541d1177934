import { lazy, Suspense } from 'react';
import { signOut } from './api/routes.ts';
import { useSession } from './api/session.ts';
import { Loading } from './components/ui.tsx';
import { Home } from './pages/Home.tsx';
import { Profile } from './pages/Profile.tsx';
import { SignIn } from './pages/SignIn.tsx';
import { Link, match, navigate, useLocation } from './router.tsx';

const Wrapped = lazy(() => import('./pages/Wrapped.tsx').then((m) => ({ default: m.Wrapped })));

/** Pages beyond the first load come in their own chunks (charts weigh the most). */
const PAGES: { pattern: string; render: (params: Record<string, string>) => React.ReactNode }[] = [
  { pattern: '/', render: () => <Home /> },
  { pattern: '/signin', render: () => <SignIn mode="signin" /> },
  { pattern: '/signup', render: () => <SignIn mode="signup" /> },
  { pattern: '/u/:handle', render: ({ handle }) => <Profile handle={handle!} /> },
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

function Navigation() {
  const session = useSession();
  return (
    <header className="top">
      <nav aria-label="Main">
        <Link href="/" className="brand">
          Earshot
        </Link>
        {session && <Link href={`/u/${session.handle}`}>Profile</Link>}
      </nav>
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

export function App() {
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <Navigation />
      <main id="main">
        <Suspense fallback={<Loading />}>
          <Page />
        </Suspense>
      </main>
    </>
  );
}


