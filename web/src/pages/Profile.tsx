import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { procedure, query, type Output } from '../api/xrpc.ts';
import { useLiveEvents } from '../api/live.ts';
import { useSession } from '../api/session.ts';
import { OwnPlayActions } from '../components/PlayActions.tsx';
import { ScrobbleList } from '../components/ScrobbleList.tsx';
import { Loading, PageError } from '../components/ui.tsx';
import { Link } from '../router.tsx';
import { FirstPlayHelp } from './Home.tsx';
import { rememberTimeZone, statsTimeZone, usePrefetchProfileStats } from './profile-queries.ts';

/** Statistics bring Recharts: their own chunk, whose download starts as the page first renders (see Profile). */
const ProfileStats = lazy(() => import('./ProfileStats.tsx').then((m) => ({ default: m.ProfileStats })));

/**
 * A user's page: counts, follow, statistics (with a link to their Wrapped), and their plays (newest
 * first, loading more on scroll). Everything starts at once from the handle in the URL: the
 * profile, the history, the first statistics and the statistics chunk, so the page waits for the
 * slowest of them rather than for their sum.
 */
export function Profile({ handle }: { handle: string }) {
  const session = useSession();
  // Counts move with every play: always fresh when the page opens.
  const profile = useQuery({ queryKey: ['profile', handle, session?.did], queryFn: () => query('app.svc.actor.getProfile', { did: handle }), staleTime: 0 });
  const timeZone = statsTimeZone(session, handle, profile.data?.timeZone);
  usePrefetchProfileStats(handle, timeZone);
  const ownZone = session?.handle === handle ? profile.data?.timeZone : undefined;
  useEffect(() => {
    if (session && ownZone) rememberTimeZone(session.did, ownZone);
  }, [session, ownZone]);
  // An unknown user: the other reads fail alike, so only the profile's answer is shown.
  if (profile.isError) return <PageError error={profile.error} what="profile" />;
  return (
    <section>
      {profile.isPending ? <Loading label="Loading the profile…" /> : <ProfileHead user={profile.data} handle={handle} />}
      <Suspense fallback={<Loading label="Loading statistics…" />}>
        <ProfileStats handle={handle} timeZone={timeZone} />
      </Suspense>
      <History handle={handle} />
    </section>
  );
}

type ProfileData = Output<'app.svc.actor.getProfile'>;

function ProfileHead({ user, handle }: { user: ProfileData; handle: string }) {
  const session = useSession();
  const client = useQueryClient();
  const follow = useMutation({
    mutationFn: (following: boolean) => procedure(following ? 'app.svc.actor.unfollow' : 'app.svc.actor.follow', { did: handle }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['profile', handle] }),
  });
  const own = session?.handle === handle;
  return (
    <>
      <header className="profile-head">
        {user.avatar ? <img className="avatar" src={user.avatar} alt="" width={64} height={64} /> : <span className="avatar" aria-hidden="true" />}
        <div>
          <h1>{user.displayName ?? user.handle}</h1>
          <p className="muted">@{user.handle}</p>
        </div>
        {session && !own && (
          <button type="button" onClick={() => follow.mutate(user.following)} disabled={follow.isPending}>
            {user.following ? 'Unfollow' : 'Follow'}
          </button>
        )}
      </header>
      <dl className="counts">
        <div>
          <dt>Plays</dt>
          <dd data-testid="scrobbles-count">{user.scrobblesCount.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Artists</dt>
          <dd>{user.artistsCount.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Songs</dt>
          <dd>{user.songsCount.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Followers</dt>
          <dd>{user.followersCount.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Following</dt>
          <dd>{user.followingCount.toLocaleString()}</dd>
        </div>
      </dl>
      <p>
        <Link href={`/u/${encodeURIComponent(user.handle)}/wrapped`}>{own ? 'Your Wrapped' : `${user.displayName ?? user.handle}'s Wrapped`}</Link>
      </p>
    </>
  );
}

/** The user's plays; their own can be corrected or deleted. */
function History({ handle }: { handle: string }) {
  const session = useSession();
  const own = session?.handle === handle;
  const client = useQueryClient();
  // Live events (/events) of this user: a new play shows in the history and the counts without reloading.
  useLiveEvents((event) => {
    if (event?.type === 'nowPlaying') return;
    void client.invalidateQueries({ queryKey: ['history', handle] });
    void client.invalidateQueries({ queryKey: ['profile', handle] });
  }, handle);
  return (
    <>
      <h2>History</h2>
      <ScrobbleList
        queryKey={['history', handle]}
        showUser={false}
        load={(cursor) => query('app.svc.actor.getActorScrobbles', { did: handle, limit: 50, cursor })}
        empty={own ? <FirstPlayHelp /> : <p>{handle} has no plays yet.</p>}
        actions={own ? (scrobble) => <OwnPlayActions play={scrobble} /> : undefined}
      />
    </>
  );
}
