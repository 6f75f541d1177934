/**
 * The song catalog: an RSQL filter box, a sort and pages, all kept in the URL
 * (/songs?filter=…&sort=…&offset=…) so a filtered list can be linked and the back button works.
 */
import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { query, XrpcFailure, type Output, type Params } from '../api/xrpc.ts';
import { Empty, ErrorNote, Loading } from '../components/ui.tsx';
import { Link, navigate, useLocation } from '../router.tsx';
import { SongList } from './catalog-parts.tsx';
import { filterErrorPosition } from './catalog-text.ts';

const PAGE_SIZE = 50;
type Sort = NonNullable<Params<'app.svc.song.getSongs'>['sort']>;
const SORTS: { value: Sort; label: string }[] = [
  { value: '-createdAt', label: 'Newest first' },
  { value: '-playCount', label: 'Most played' },
  { value: 'playCount', label: 'Least played' },
  { value: 'createdAt', label: 'Oldest first' },
  { value: 'title', label: 'Title A–Z' },
  { value: '-title', label: 'Title Z–A' },
  { value: 'artist', label: 'Artist A–Z' },
  { value: '-artist', label: 'Artist Z–A' },
  { value: 'album', label: 'Album A–Z' },
  { value: '-album', label: 'Album Z–A' },
  { value: 'duration', label: 'Shortest first' },
  { value: '-duration', label: 'Longest first' },
];
const EXAMPLES = [
  'title==*love*;duration>180000',
  'playCount>=10',
  'artist=="Daft Punk" and album=in=(Discovery,Homework)',
  'genre==disco,createdAt>=2025-01-01',
];

interface View {
  filter: string;
  sort: Sort;
  offset: number;
}

function readView(search: URLSearchParams): View {
  const sort = SORTS.find((option) => option.value === search.get('sort'))?.value ?? '-createdAt';
  const offset = Math.max(0, Math.floor(Number(search.get('offset')) || 0));
  return { filter: search.get('filter') ?? '', sort, offset };
}

export function songsHref({ filter, sort, offset }: Partial<View>): string {
  const search = new URLSearchParams();
  if (filter?.trim()) search.set('filter', filter);
  if (sort && sort !== '-createdAt') search.set('sort', sort);
  if (offset) search.set('offset', String(offset));
  const text = search.toString();
  return text ? `/songs?${text}` : '/songs';
}

export function Songs() {
  const view = readView(useLocation().search);
  // Sent as typed (not trimmed) so the server's positions match the box. One more than a page tells whether a next page exists, without a count.
  const songs = useQuery({
    queryKey: ['catalog', 'songs', view],
    queryFn: () =>
      query('app.svc.song.getSongs', { filter: view.filter.trim() ? view.filter : undefined, sort: view.sort, limit: PAGE_SIZE + 1, offset: view.offset }),
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof XrpcFailure && error.status >= 400 && error.status < 500) && count < 1,
  });
  const go = (change: Partial<View>) => navigate(songsHref({ ...view, offset: 0, ...change }));
  return (
    <section>
      <h1>Songs</h1>
      <FilterForm key={view.filter} filter={view.filter} error={songs.isError ? songs.error : null} onSubmit={(filter) => go({ filter })} />
      <div className="songs-toolbar">
        <label className="inline">
          Sort
          <select value={view.sort} onChange={(event) => go({ sort: event.target.value as Sort })}>
            {SORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        {songs.isFetching && !songs.isPending && (
          <span className="muted small" role="status">
            Updating…
          </span>
        )}
      </div>
      <SongsPage view={view} songs={songs} onPage={(offset) => go({ offset })} />
    </section>
  );
}

function SongsPage({ view, songs, onPage }: { view: View; songs: UseQueryResult<Output<'app.svc.song.getSongs'>>; onPage: (offset: number) => void }) {
  if (songs.isPending) return <Loading label="Loading songs…" />;
  // A bad filter's message shows beside the box (FilterForm); other failures here.
  if (songs.isError) return filterProblem(songs.error) ? null : <ErrorNote error={songs.error} />;
  const shown = songs.data.tracks.slice(0, PAGE_SIZE);
  const more = songs.data.tracks.length > PAGE_SIZE;
  if (shown.length === 0) {
    return (
      <Empty>
        {view.offset > 0 ? (
          <p>
            No songs on this page. <Link href={songsHref({ ...view, offset: 0 })}>Back to the first page</Link>.
          </p>
        ) : view.filter.trim() ? (
          <p>
            No songs match this filter. Loosen it (wildcards: <code>title==*love*</code>) or <Link href="/songs">clear it</Link>.
          </p>
        ) : (
          <p>The catalog is empty: songs appear here once someone sends a play or adds music to a library.</p>
        )}
      </Empty>
    );
  }
  return (
    <>
      <p className="muted small">
        Songs {view.offset + 1}–{view.offset + shown.length}
      </p>
      <SongList songs={shown} />
      <nav className="pager" aria-label="Pages">
        <button type="button" className="secondary" disabled={view.offset === 0} onClick={() => onPage(Math.max(0, view.offset - PAGE_SIZE))}>
          Previous
        </button>
        <button type="button" className="secondary" disabled={!more} onClick={() => onPage(view.offset + PAGE_SIZE)}>
          Next
        </button>
      </nav>
    </>
  );
}

/** The server's message for a bad filter, and the 1-based character it points at. */
function filterProblem(error: unknown): { message: string; position: number } | null {
  if (!(error instanceof XrpcFailure) || error.error !== 'InvalidRequest' || !error.message.startsWith('invalid filter')) return null;
  return { message: error.message, position: filterErrorPosition(error.message) ?? 0 };
}

function FilterForm({ filter, error, onSubmit }: { filter: string; error: unknown; onSubmit: (filter: string) => void }) {
  const [draft, setDraft] = useState(filter);
  const problem = filterProblem(error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(draft);
  };
  return (
    <form className="filter-form" onSubmit={submit} role="search" aria-label="Filter songs">
      <label htmlFor="song-filter">Filter (RSQL)</label>
      <div className="filter-row">
        <input
          id="song-filter"
          type="text"
          className="mono"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="title==*love*;duration>180000"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'filter-problem' : 'filter-help'}
        />
        <button type="submit">Filter</button>
        {filter && (
          <button type="button" className="secondary" onClick={() => onSubmit('')}>
            Clear
          </button>
        )}
      </div>
      {problem ? (
        <FilterProblem id="filter-problem" filter={filter} {...problem} />
      ) : (
        <details id="filter-help" className="small muted">
          <summary>How to filter</summary>
          <p>
            Compare fields with <code>==</code> <code>!=</code> <code>&lt;</code> <code>&lt;=</code> <code>&gt;</code> <code>&gt;=</code> <code>=in=(a,b)</code>{' '}
            <code>=out=(a,b)</code>; join with <code>;</code> (and) or <code>,</code> (or); quote values with spaces. <code>*</code> is a wildcard in text.
            Fields: title, artist, album, albumArtist, genre, composer, label, duration (ms), trackNumber, discNumber, mbId, isrc, createdAt (2025-01-31),
            playCount (plays by everyone).
          </p>
          <p>
            Examples:{' '}
            {EXAMPLES.map((example) => (
              <span key={example}>
                <Link href={songsHref({ filter: example })}>
                  <code>{example}</code>
                </Link>{' '}
              </span>
            ))}
          </p>
        </details>
      )}
    </form>
  );
}

/** The filter as sent, with the character the server points at marked and a caret under it. */
export function FilterProblem({ id, filter, message, position }: { id: string; filter: string; message: string; position: number }) {
  const at = position - 1;
  const known = position > 0 && at <= filter.length;
  return (
    <div id={id} className="filter-problem" role="alert">
      <p className="error">{message}</p>
      {known && (
        // biome-ignore lint/a11y/useAriaPropsSupportedByRole: screen readers announce the label before the echoed filter
        <pre className="mono filter-echo" aria-label={`Position ${position} of the filter`}>
          {filter.slice(0, at)}
          <mark data-testid="filter-mark">{filter[at] ?? ' '}</mark>
          {filter.slice(at + 1)}
          {'\n'}
          <span aria-hidden="true">{' '.repeat(at)}^</span>
        </pre>
      )}
    </div>
  );
}
