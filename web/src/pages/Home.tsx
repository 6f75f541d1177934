import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useLiveEvents } from '../api/live.ts';
import { query } from '../api/xrpc.ts';
import { useSession } from '../api/session.ts';
import { OwnPlayActions } from '../components/PlayActions.tsx';
import { ScrobbleList } from '../components/ScrobbleList.tsx';
import { ErrorNote, formatDate } from '../components/ui.tsx';
import { Link } from '../router.tsx';

/** The recent feed of everyone, or of the people you follow. */
export function Home() {
  const session = useSession();
  const [feed, setFeed] = useState<'recent' | 'following'>('recent');
  const client = useQueryClient();
  // Live events (/events): the strip and the feed are read again as plays and now-playings arrive.
  useLiveEvents((event) => {
    if (!event || event.type === 'nowPlaying') void client.invalidateQueries({ queryKey: ['nowPlaying'] });
    if (!event || event.type === 'scrobble') void client.invalidateQueries({ queryKey: ['feed'] });
  });
  return (
    <section>
      <h1>Recent plays</h1>
      {session && (
        <div className="tabs" role="tablist">
          <button type="button" role="tab" aria-selected={feed === 'recent'} onClick={() => setFeed('recent')}>
            Everyone
          </button>
          <button type="button" role="tab" aria-selected={feed === 'following'} onClick={() => setFeed('following')}>
            Following
          </button>
        </div>
      )}
      <ListeningNow feed={feed} did={session?.did} />
      <ScrobbleList
        queryKey={['feed', feed, session?.did]}
        load={(cursor) => query('app.svc.feed.getFeed', { feed: `earshot:feed:${feed}`, limit: 50, cursor })}
        empty={feed === 'following' ? <p>No plays from people you follow yet. Find people on their profile pages and follow them.</p> : <FirstPlayHelp />}
        actions={(scrobble) => scrobble.handle === session?.handle && <OwnPlayActions play={scrobble} />}
      />
    </section>
  );
}

/** How often the strip asks again besides live events: entries expire when their song ends, which no event tells. */
const NOW_PLAYING_REFRESH_MS = 30_000;

/** Who is playing something right now in the chosen feed; nothing at all when nobody is. */
function ListeningNow({ feed, did }: { feed: 'recent' | 'following'; did: string | undefined }) {
  const listening = useQuery({
    queryKey: ['nowPlaying', feed, did],
    queryFn: () => query('app.svc.feed.getNowPlaying', { feed: `earshot:feed:${feed}`, limit: 20 }),
    refetchInterval: NOW_PLAYING_REFRESH_MS,
  });
  // A failed refresh keeps the last answer; only a strip that never loaded explains the failure.
  if (listening.error && !listening.data) return <ErrorNote error={listening.error} />;
  const entries = listening.data?.nowPlaying ?? [];
  if (entries.length === 0) return null;
  return (
    <section className="listening-now" aria-labelledby="listening-now-title">
      <h2 id="listening-now-title">Listening now</h2>
      <ul>
        {entries.map((entry) => (
          <li key={entry.did} title={`Since ${formatDate(entry.since)}`}>
            <Link href={`/u/${entry.handle}`} className="listening-now-who">
              {entry.avatar ? (
                <img src={entry.avatar} alt="" width={32} height={32} loading="lazy" />
              ) : (
                <span className="listening-now-initial" aria-hidden="true">
                  {entry.handle.slice(0, 1).toUpperCase()}
                </span>
              )}
              <span>{entry.displayName ?? entry.handle}</span>
            </Link>
            <span className="listening-now-track">
              {entry.trackId ? <Link href={`/songs/${entry.trackId}`}>{entry.title}</Link> : entry.title}
              <span className="muted"> · {entry.artist}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What a new server shows: how to send the first play. */
export function FirstPlayHelp() {
  return (
    <div>
      <p>
        <strong>No plays yet.</strong> Send your first one from any scrobbler:
      </p>
      <ol>
        <li>
          Create an API key in <Link href="/settings">Settings</Link>.
        </li>
        <li>Point your scrobbler at this server (ListenBrainz, Last.fm or Audioscrobbler): Settings shows the exact URL for each.</li>
        <li>Play a song. It shows up here within seconds.</li>
      </ol>
    </div>
  );
}
