/** Whether the signed-in user is an admin (their own profile says so), for showing the catalog's edit tools. */
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../api/session.ts';
import { query } from '../api/xrpc.ts';

export function useIsAdmin(): boolean {
  const session = useSession();
  // The key the profile page reads the same profile under: one request serves both.
  const profile = useQuery({
    queryKey: ['profile', session?.handle, session?.did],
    queryFn: () => query('app.svc.actor.getProfile', { did: session!.handle }),
    enabled: session !== null,
  });
  return session !== null && profile.data?.admin === true;
}
