import { useState } from 'react';
import { query } from '../api/xrpc.ts';
import { useSession } from '../api/session.ts';
import { ScrobbleList } from '../components/ScrobbleList.tsx';
import { Link } from '../router.tsx';

/** The recent feed of everyone, or of the people you follow. */
export function Home() {
  const session = useSession();
  const [feed, setFeed] = useState<'recent' | 'following'>('recent');
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
      <ScrobbleList
        queryKey={['feed', feed, session?.did]}
        load={(cursor) => query('app.svc.feed.getFeed', { feed: `earshot:feed:${feed}`, limit: 50, cursor })}
        empty={
          feed === 'following' ? (
            <p>No plays from people you follow yet. Find people on their profile pages and follow them.</p>
          ) : (
            <FirstPlayHelp />
          )
        }
      />
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
