/** Search across artists, albums, songs and users (/search?q=…), with the answers linked to their pages. */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { query } from '../api/xrpc.ts';
import { useSession } from '../api/session.ts';
import { Empty, ErrorNote, Loading } from '../components/ui.tsx';
import { Link, navigate, useLocation } from '../router.tsx';
import { Artwork } from '../components/Artwork.tsx';
import { ArtistLink, SongList } from './catalog-parts.tsx';
import { containsValue, plural } from './catalog-text.ts';
import { songsHref } from './Songs.tsx';

const LIMIT = 10;

export const searchHref = (q: string) => `/search?${new URLSearchParams({ q: q.trim() })}`;

export function Search() {
  const q = (useLocation().search.get('q') ?? '').trim();
  return (
    <section>
      <h1>Search</h1>
      <SearchBox key={q} initial={q} />
      {q ? <Results q={q} /> : <p className="muted">Type part of the name of an artist, album, song or person.</p>}
    </section>
  );
}

function SearchBox({ initial }: { initial: string }) {
  const [draft, setDraft] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.trim()) navigate(searchHref(draft));
  };
  return (
    <form className="filter-row" role="search" aria-label="Search the catalog" onSubmit={submit}>
      <label className="visually-hidden" htmlFor="search-page-q">
        Search for
      </label>
      <input
        id="search-page-q"
        type="search"
        value={draft}
        maxLength={200}
        onChange={(event) => setDraft(event.target.value)}
        placeholder="Artist, album, song or person"
      />
      <button type="submit">Search</button>
    </form>
  );
}

function Results({ q }: { q: string }) {
  const session = useSession();
  const found = useQuery({ queryKey: ['catalog', 'search', q, session?.did], queryFn: () => query('app.svc.feed.search', { q, limit: LIMIT }) });
  if (found.isPending) return <Loading label="Searching…" />;
  if (found.isError) return <ErrorNote error={found.error} />;
  const { artists, albums, songs, users } = found.data;
  if (artists.length + albums.length + songs.length + users.length === 0) {
    return (
      <Empty>
        <p>
          Nothing matches “{q}”. Try a shorter part of a name, or filter <Link href="/songs">all songs</Link> by any field.
        </p>
      </Empty>
    );
  }
  const more = (count: number, href: string, label: string) =>
    count >= LIMIT && (
      <p>
        <Link href={href}>{label}</Link>
      </p>
    );
  return (
    <div className="search-results">
      <Group title="Artists" count={artists.length}>
        <ul className="plays">
          {artists.map((artist) => (
            <li key={artist.id} className="play">
              <Artwork src={artist.picture} name={artist.name} />
              <div className="play-text">
                <ArtistLink name={artist.name} uri={artist.uri} />
                <div className="muted small">{plural(artist.playCount, 'play')}</div>
              </div>
            </li>
          ))}
        </ul>
      </Group>
      <Group title="Albums" count={albums.length}>
        <ul className="plays">
          {albums.map((album) => (
            <li key={album.id} className="play">
              <Artwork src={album.albumArt} name={album.title} />
              <div className="play-text">
                <Link href={`/albums/${album.id}`}>{album.title}</Link>
                <span className="muted">
                  {' '}
                  · <ArtistLink name={album.artist} uri={album.artistUri} />
                </span>
                <div className="muted small">{plural(album.playCount, 'play')}</div>
              </div>
            </li>
          ))}
        </ul>
      </Group>
      <Group title="Songs" count={songs.length}>
        <SongList songs={songs} />
        {more(songs.length, songsHref({ filter: `title==${containsValue(q)},artist==${containsValue(q)}` }), `All songs matching “${q}”`)}
      </Group>
      <Group title="People" count={users.length}>
        <ul className="plays">
          {users.map((user) => (
            <li key={user.did} className="play">
              {user.avatar ? (
                <img className="art avatar-small" src={user.avatar} alt="" width={40} height={40} />
              ) : (
                <span className="art avatar-small" aria-hidden="true" />
              )}
              <div className="play-text">
                <Link href={`/u/${user.handle}`}>{user.displayName ?? user.handle}</Link>
                <span className="muted"> @{user.handle}</span>
              </div>
            </li>
          ))}
        </ul>
      </Group>
    </div>
  );
}

/** A kind of result under its heading; a kind without matches says so in one line. */
function Group({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {count > 0 ? children : <p className="muted">No {title.toLowerCase()} match.</p>}
    </section>
  );
}
