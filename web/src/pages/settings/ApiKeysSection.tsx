/** API keys (app.svc.apikey.*): what scrobbling apps and music players sign in with; key and shared secret are shown once. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { SignedIn } from '../../api/session.ts';
import { procedure, query } from '../../api/xrpc.ts';
import { Empty, ErrorNote, Loading, formatDate } from '../../components/ui.tsx';
import { ClientSetup } from './client-setup.tsx';
import { CopyValue, SecretOnce, SettingsSection } from './shared.tsx';

const KEY = ['settings', 'apikeys'];

export function ApiKeysSection({ session }: { session: SignedIn }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const keys = useQuery({ queryKey: KEY, queryFn: () => query('app.svc.apikey.getApikeys', {}) });
  const create = useMutation({
    mutationFn: () => procedure('app.svc.apikey.createApikey', { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}) }),
    onSuccess: () => {
      setName('');
      setDescription('');
      void client.invalidateQueries({ queryKey: KEY });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => procedure('app.svc.apikey.removeApikey', { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <SettingsSection id="api-keys" title="API keys for scrobblers and players">
      <p className="muted">
        One key per app: scrobblers (ListenBrainz, Last.fm, Audioscrobbler) and Subsonic players sign in with it. A key can scrobble and read, never manage your
        account.
      </p>
      {create.data && (
        <SecretOnce title={`API key "${create.data.name}" created`} onDone={() => create.reset()}>
          <dl className="client-values">
            <CopyValue label="Key" value={create.data.key} />
            <CopyValue label="Shared secret (Last.fm clients only)" value={create.data.sharedSecret} />
          </dl>
          <h3>Where to paste it</h3>
          <ClientSetup handle={session.handle} secrets={{ key: create.data.key, sharedSecret: create.data.sharedSecret }} />
        </SecretOnce>
      )}
      <form className="stack" onSubmit={submit}>
        <div className="inline-form">
          <label>
            Name
            <input
              required
              maxLength={100}
              pattern=".*\S.*"
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. Pano Scrobbler on my phone"
            />
          </label>
          <label>
            Description (optional)
            <input maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Creating…' : 'Create API key'}
          </button>
        </div>
      </form>
      {create.isError && <ErrorNote error={create.error} />}
      {remove.isError && <ErrorNote error={remove.error} />}
      {keys.isPending ? (
        <Loading />
      ) : keys.isError ? (
        <ErrorNote error={keys.error} />
      ) : keys.data.apikeys.length === 0 ? (
        <Empty>No API keys yet. Create one above, then paste it into your scrobbler or player as shown.</Empty>
      ) : (
        <ul className="settings-list">
          {keys.data.apikeys.map((key) => (
            <li key={key.id} className="apikey">
              <div className="apikey-head">
                <div>
                  <strong>{key.name}</strong>
                  {key.description && <span className="muted"> · {key.description}</span>}
                  <div className="muted small">
                    Created {formatDate(key.createdAt)} · {key.lastUsedAt ? `last used ${formatDate(key.lastUsedAt)}` : 'never used'}
                  </div>
                </div>
                <button
                  type="button"
                  className="secondary danger"
                  disabled={remove.isPending}
                  onClick={() => confirm(`Remove "${key.name}"? Apps using it are signed out at once.`) && remove.mutate(key.id)}
                >
                  Remove
                </button>
              </div>
              <details>
                <summary>Where to paste it</summary>
                <ClientSetup handle={session.handle} />
              </details>
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}
