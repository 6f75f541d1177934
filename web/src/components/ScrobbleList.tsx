/** Plays, newest first, with more loaded as the reader reaches the end (the feed's cursor). */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from '../router.tsx';
import type { Output } from '../api/xrpc.ts';
import { Artwork } from './Artwork.tsx';
import { Empty, ErrorNote, Loading, formatDate } from './ui.tsx';

type Page = { scrobbles: Output<'app.svc.actor.getActorScrobbles'>['scrobbles']; cursor?: string | undefined };
export type ScrobbleView = Page['scrobbles'][number];

export function ScrobbleList({
  queryKey,
  load,
  empty,
  showUser = true,
  actions,
}: {
  queryKey: readonly unknown[];
  load: (cursor: string | undefined) => Promise<Page>;
  empty: React.ReactNode;
  showUser?: boolean;
  actions?: (scrobble: ScrobbleView) => React.ReactNode;
}) {
  const pages = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => load(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.cursor,
  });
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const marker = end.current;
    if (!marker || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => {
      if (entry?.isIntersecting && pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
    });
    observer.observe(marker);
    return () => observer.disconnect();
  }, [pages]);
  if (pages.isPending) return <Loading label="Loading plays…" />;
  if (pages.isError) return <ErrorNote error={pages.error} />;
  const scrobbles = pages.data.pages.flatMap((page) => page.scrobbles);
  if (scrobbles.length === 0) return <Empty>{empty}</Empty>;
  return (
    <>
      <ol className="plays">
        {scrobbles.map((scrobble) => (
          <li key={scrobble.id} className="play">
            <Artwork src={scrobble.albumArt} name={scrobble.album ?? scrobble.title} />
            <div className="play-text">
              <Link href={`/songs/${scrobble.trackId}`} className="title">
                {scrobble.title}
              </Link>
              <span className="muted"> · {scrobble.artist}</span>
              <div className="muted small">
                {showUser && (
                  <>
                    <Link href={`/u/${scrobble.handle}`}>{scrobble.userDisplayName ?? scrobble.handle}</Link> ·{' '}
                  </>
                )}
                <time dateTime={scrobble.createdAt}>{formatDate(scrobble.createdAt)}</time>
              </div>
            </div>
            {actions?.(scrobble)}
          </li>
        ))}
      </ol>
      <div ref={end} />
      {pages.hasNextPage && (
        <button type="button" className="secondary" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
          {pages.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}
