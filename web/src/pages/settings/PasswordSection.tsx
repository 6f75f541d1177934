/** Changing the password (app.svc.actor.changePassword): other sign-in sessions end, this one stays. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { procedure } from '../../api/xrpc.ts';
import { ErrorNote } from '../../components/ui.tsx';
import { SettingsSection } from './shared.tsx';

export function PasswordSection() {
  const client = useQueryClient();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [repeated, setRepeated] = useState('');
  const hintId = useId();
  const change = useMutation({
    mutationFn: () => procedure('app.svc.actor.changePassword', { currentPassword, newPassword }),
    onSuccess: () => {
      setCurrent('');
      setNew('');
      setRepeated('');
      void client.invalidateQueries({ queryKey: ['settings', 'sessions'] });
    },
  });
  const mismatch = repeated !== '' && repeated !== newPassword;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!mismatch) change.mutate();
  };
  return (
    <SettingsSection id="password" title="Password">
      <form className="stack" onSubmit={submit}>
        <input type="text" name="username" autoComplete="username" hidden readOnly />
        <label>
          Current password
          <input type="password" autoComplete="current-password" required value={currentPassword} onChange={(e) => setCurrent(e.target.value)} />
        </label>
        <label>
          New password
          <input
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            aria-describedby={hintId}
            value={newPassword}
            onChange={(e) => setNew(e.target.value)}
          />
        </label>
        {/* Outside the label, so the field's name stays "New password"; the hint is its description. */}
        <span id={hintId} className="muted small">
          At least 8 characters.
        </span>
        <label>
          New password again
          <input type="password" autoComplete="new-password" required value={repeated} onChange={(e) => setRepeated(e.target.value)} aria-invalid={mismatch} />
        </label>
        {mismatch && <p className="error">The two new passwords differ.</p>}
        {change.isError && <ErrorNote error={change.error} />}
        {change.isSuccess && (
          <p role="status" className="muted">
            Password changed. Your other sign-in sessions have ended; access tokens and API keys keep working.
          </p>
        )}
        <div>
          <button type="submit" disabled={change.isPending || mismatch}>
            {change.isPending ? 'Changing…' : 'Change password'}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
