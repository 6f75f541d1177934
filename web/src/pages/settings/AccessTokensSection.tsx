/** Personal access tokens (/access-tokens): the secret is shown once at creation, then only its last four characters. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { route } from '../../api/routes.ts';
import { Empty, ErrorNote, Loading, formatDate } from '../../components/ui.tsx';
import { CopyButton, SecretOnce, SettingsSection } from './shared.tsx';

const KEY = ['settings', 'access-tokens'];

export function AccessTokensSection() {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const tokens = useQuery({ queryKey: KEY, queryFn: () => route('GET /access-tokens') });
  const create = useMutation({
    mutationFn: () => route('POST /access-tokens', { body: { name: name.trim() } }),
    onSuccess: () => {
      setName('');
      void client.invalidateQueries({ queryKey: KEY });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => route('DELETE /access-tokens/:id', { pathParams: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEY }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <SettingsSection id="access-tokens" title="Access tokens">
      <p className="muted">
        For scripts and the command line: a token works like signing in (send it as <code>Authorization: Bearer …</code>) until you revoke it.
      </p>
      {create.data && (
        <SecretOnce title={`Access token "${create.data.name}" created`} onDone={() => create.reset()}>
          <p className="secret">
            <code>{create.data.token}</code> <CopyButton text={create.data.token} />
          </p>
        </SecretOnce>
      )}
      <form className="inline-form" onSubmit={submit}>
        <label>
          Name
          <input required maxLength={100} pattern=".*\S.*" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. laptop backup script" />
        </label>
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create token'}
        </button>
      </form>
      {create.isError && <ErrorNote error={create.error} />}
      {revoke.isError && <ErrorNote error={revoke.error} />}
      {tokens.isPending ? (
        <Loading />
      ) : tokens.isError ? (
        <ErrorNote error={tokens.error} />
      ) : tokens.data.tokens.length === 0 ? (
        <Empty>No access tokens yet. Create one above when a script needs to act as you.</Empty>
      ) : (
        <ul className="settings-list">
          {tokens.data.tokens.map((token) => (
            <li key={token.id}>
              <div>
                <strong>{token.name}</strong> <code className="muted">…{token.lastFour}</code>
                <div className="muted small">
                  Created {formatDate(token.createdAt)} · {token.lastUsedAt ? `last used ${formatDate(token.lastUsedAt)}` : 'never used'}
                </div>
              </div>
              <button
                type="button"
                className="secondary danger"
                disabled={revoke.isPending}
                onClick={() =>
                  confirm(`Revoke "${token.name}"? Whatever uses it is refused from now on, and so are the tokens and API keys it created.`) &&
                  revoke.mutate(token.id)
                }
              >
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}
