/** Display name, avatar and time zone (app.svc.actor.updateProfile). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { SignedIn } from '../../api/session.ts';
import { procedure, query, type Output } from '../../api/xrpc.ts';
import { ErrorNote, Loading } from '../../components/ui.tsx';
import { SettingsSection } from './shared.tsx';

type Profile = Output<'app.svc.actor.getProfile'>;

/** Every zone the browser knows, with the current one first if the browser's list lacks it (e.g. "UTC"). */
function timeZones(current: string): string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes(current) ? known : [current, ...known];
}

export function ProfileSection({ session }: { session: SignedIn }) {
  const profile = useQuery({
    queryKey: ['profile', session.handle, session.did],
    queryFn: () => query('app.svc.actor.getProfile', { did: session.did }),
  });
  return (
    <SettingsSection id="profile" title="Profile">
      {profile.isPending ? <Loading /> : profile.isError ? <ErrorNote error={profile.error} /> : <ProfileForm profile={profile.data} />}
    </SettingsSection>
  );
}

function ProfileForm({ profile }: { profile: Profile }) {
  const client = useQueryClient();
  const [displayName, setDisplayName] = useState(profile.displayName ?? '');
  const [avatar, setAvatar] = useState(profile.avatar ?? '');
  const [timeZone, setTimeZone] = useState(profile.timeZone ?? 'UTC');
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const save = useMutation({
    // Blank fields clear the value (null), as the operation takes it.
    mutationFn: () => procedure('app.svc.actor.updateProfile', { displayName: displayName.trim() || null, avatar: avatar.trim() || null, timeZone }),
    onSuccess: (saved) => {
      client.setQueryData(['profile', saved.handle, saved.did], saved);
      void client.invalidateQueries({ queryKey: ['profile', saved.handle] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="stack" onSubmit={submit} onChange={() => save.reset()}>
      <label>
        Display name
        <input name="displayName" maxLength={64} value={displayName} onChange={(e) => setDisplayName(e.target.value)} placeholder={profile.handle} />
        <span className="muted small">Up to 64 characters; leave empty to show your handle.</span>
      </label>
      <label>
        Avatar URL
        <input name="avatar" type="url" inputMode="url" value={avatar} onChange={(e) => setAvatar(e.target.value)} placeholder="https://…" />
        <span className="muted small">An http or https address of a picture; leave empty for none.</span>
      </label>
      <label>
        Time zone
        <select name="timeZone" value={timeZone} onChange={(e) => setTimeZone(e.target.value)}>
          {timeZones(timeZone).map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
        <span className="muted small">Wrapped and charts count your days and hours in it.</span>
      </label>
      {browserZone && browserZone !== timeZone && (
        <p className="small">
          This browser is in {browserZone}.{' '}
          <button type="button" className="link" onClick={() => setTimeZone(browserZone)}>
            Use {browserZone}
          </button>
        </p>
      )}
      {save.isError && <ErrorNote error={save.error} />}
      {save.isSuccess && (
        <p role="status" className="muted">
          Saved.
        </p>
      )}
      <div>
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save profile'}
        </button>
      </div>
    </form>
  );
}
