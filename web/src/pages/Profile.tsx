import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { procedure, query } from '../api/xrpc.ts';
import { useSession } from '../api/session.ts';
import { ScrobbleList } from '../components/ScrobbleList.tsx';
import { ErrorNote, Loading } from '../components/ui.tsx';
import { Link } from '../router.tsx';
import { FirstPlayHelp } from './Home.tsx';
import { browserTimeZone } from './stats.ts';

/** Statistics bring Recharts: their own chunk, loaded after the profile itself shows. */
const ProfileStats = lazy(() => import('./ProfileStats.tsx').then((m) => ({ default: m.ProfileStats })));

/** A user's page: counts, follow, statistics (with a link to their Wrapped), and their plays (newest first, loading more on scroll). */
export function Profile({ handle }: { handle: string }) {
  const session = useSession();
  const client = useQueryClient();
  // Counts move with every play: always fresh when the page opens.
  const profile = useQuery({ queryKey: ['profile', handle, session?.did], queryFn: () => query('app.svc.actor.getProfile', { did: handle }), staleTime: 0 });
  const follow = useMutation({
    mutationFn: (following: boolean) => procedure(following ? 'app.svc.actor.unfollow' : 'app.svc.actor.follow', { did: handle }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['profile', handle] }),
  });
  const own = session?.handle === handle;
  const remove = useMutation({
    mutationFn: (id: string) => procedure('app.svc.scrobble.deleteScrobble', { id }),
    onSuccess: () => client.invalidateQueries(),
  });
  if (profile.isPending) return <Loading />;
  if (profile.isError) return <ErrorNote error={profile.error} />;
  const user = profile.data;
  return (
    <section>
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
        <div><dt>Plays</dt><dd data-testid="scrobbles-count">{user.scrobblesCount.toLocaleString()}</dd></div>
        <div><dt>Artists</dt><dd>{user.artistsCount.toLocaleString()}</dd></div>
        <div><dt>Songs</dt><dd>{user.songsCount.toLocaleString()}</dd></div>
        <div><dt>Followers</dt><dd>{user.followersCount.toLocaleString()}</dd></div>
        <div><dt>Following</dt><dd>{user.followingCount.toLocaleString()}</dd></div>
      </dl>
      <p>
        <Link href={`/u/${encodeURIComponent(user.handle)}/wrapped`}>{own ? 'Your Wrapped' : `${user.displayName ?? user.handle}'s Wrapped`}</Link>
      </p>
      <Suspense fallback={<Loading label="Loading statistics…" />}>
        <ProfileStats handle={handle} timeZone={user.timeZone ?? browserTimeZone()} />
      </Suspense>
      {remove.isError && <ErrorNote error={remove.error} />}
      <h2>History</h2>
      <ScrobbleList
        queryKey={['history', handle]}
        showUser={false}
        load={(cursor) => query('app.svc.actor.getActorScrobbles', { did: handle, limit: 50, cursor })}
        empty={own ? <FirstPlayHelp /> : <p>{user.handle} has no plays yet.</p>}
        actions={
          own
            ? (scrobble) => (
                <button type="button" className="link danger" aria-label={`Delete the play of ${scrobble.title}`} onClick={() => confirm(`Delete this play of ${scrobble.title}?`) && remove.mutate(scrobble.id)}>
                  Delete
                </button>
              )
            : undefined
        }
      />
    </section>
  );
}
