/** Sign-in sessions (GET /auth/sessions), each ended with DELETE /auth/sessions/:id. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { route } from '../../api/routes.ts';
import { setSession } from '../../api/session.ts';
import { Empty, ErrorNote, Loading, formatDate } from '../../components/ui.tsx';
import { navigate } from '../../router.tsx';
import { deviceName } from './device-name.ts';
import { SettingsSection } from './shared.tsx';

export function SessionsSection() {
  const client = useQueryClient();
  const sessions = useQuery({ queryKey: ['settings', 'sessions'], queryFn: () => route('GET /auth/sessions') });
  const end = useMutation({
    mutationFn: async ({ id }: { id: string; current: boolean }) => route('DELETE /auth/sessions/:id', { pathParams: { id } }),
    onSuccess: (_, { current }) => {
      // Ending this browser's own session signs it out: the token is refused from now on.
      if (current) {
        setSession(null);
        navigate('/signin');
      } else void client.invalidateQueries({ queryKey: ['settings', 'sessions'] });
    },
  });
  return (
    <SettingsSection id="sessions" title="Signed-in devices">
      <p className="muted">Every browser or app signed in with your password. End one you do not recognise, or no longer use.</p>
      {end.isError && <ErrorNote error={end.error} />}
      {sessions.isPending ? (
        <Loading />
      ) : sessions.isError ? (
        <ErrorNote error={sessions.error} />
      ) : sessions.data.sessions.length === 0 ? (
        <Empty>No sign-in sessions (you are using an access token).</Empty>
      ) : (
        <ul className="settings-list">
          {sessions.data.sessions.map((session) => (
            <li key={session.id}>
              <div>
                <strong title={session.userAgent ?? undefined}>{deviceName(session.userAgent)}</strong>
                {session.current && <span className="badge">this browser</span>}
                <div className="muted small">
                  Signed in {formatDate(session.createdAt)} · last used {formatDate(session.lastUsedAt)} · expires {formatDate(session.expiresAt)}
                </div>
              </div>
              <button
                type="button"
                className="secondary danger"
                disabled={end.isPending}
                onClick={() =>
                  (!session.current || confirm('End this session? You will be signed out here.')) && end.mutate({ id: session.id, current: session.current })
                }
              >
                {session.current ? 'Sign out here' : 'End'}
              </button>
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}
