/**
 * Deleting the account (app.svc.actor.deleteAccount): the handle typed out and the password, as
 * the API asks, so it never happens by a slip. Afterwards this browser forgets the sign-in.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { signOut } from '../../api/routes.ts';
import type { SignedIn } from '../../api/session.ts';
import { procedure, XrpcFailure } from '../../api/xrpc.ts';
import { sentence } from '../../components/play-correction.ts';
import { navigate } from '../../router.tsx';
import { SettingsSection } from './shared.tsx';

function deletionFailure(error: unknown): string {
  if (error instanceof XrpcFailure && error.error === 'AuthenticationFailed') return 'That password is not right: nothing was deleted.';
  return error instanceof Error ? sentence(error.message) : String(error);
}

export function DeleteAccountSection({ session }: { session: SignedIn }) {
  const [handle, setHandle] = useState('');
  const [password, setPassword] = useState('');
  const remove = useMutation({
    mutationFn: () => procedure('app.svc.actor.deleteAccount', { handle: handle.trim(), password }),
    onSuccess: async () => {
      // The server ended every session with the account: this only forgets it here (and the player's key).
      await signOut().catch(() => undefined);
      navigate('/');
    },
  });
  const confirmed = handle.trim().toLowerCase() === session.handle.toLowerCase();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (confirmed && password) remove.mutate();
  };
  return (
    <SettingsSection id="delete-account" title="Delete your account">
      <p>
        This deletes <strong>@{session.handle}</strong> and everything of yours at once: every play, like, follow, playlist, API key, access token and connected
        service. It cannot be undone, and the handle becomes free for anyone. Download <a href="#export">your data</a> first if you want to keep it.
      </p>
      <form className="stack" onSubmit={submit}>
        <input type="text" name="username" autoComplete="username" hidden readOnly value={session.handle} />
        <label>
          Type your handle, {session.handle}, to confirm
          <input value={handle} onChange={(event) => setHandle(event.target.value)} autoComplete="off" spellCheck={false} />
        </label>
        <label>
          Your password
          <input type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
        </label>
        {remove.isError && (
          <p className="error" role="alert">
            {deletionFailure(remove.error)}
          </p>
        )}
        <div>
          <button type="submit" className="danger-button" disabled={!confirmed || !password || remove.isPending}>
            {remove.isPending ? 'Deleting…' : 'Delete my account'}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
