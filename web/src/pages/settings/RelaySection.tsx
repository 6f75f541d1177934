/** Relay targets (app.svc.relay.*): where every stored play is sent on, each with its state, dead letters and a retry button. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { procedure, query } from '../../api/xrpc.ts';
import { Empty, ErrorNote, Loading, formatDate } from '../../components/ui.tsx';
import { SettingsSection } from './shared.tsx';

const KEY = ['settings', 'relay'];
type Kind = 'listenbrainz' | 'lastfm' | 'maloja' | 'earshot';
const KINDS: readonly [Kind, string][] = [
  ['listenbrainz', 'ListenBrainz'],
  ['lastfm', 'Last.fm'],
  ['maloja', 'Maloja'],
  ['earshot', 'Another Earshot'],
];

export function RelaySection() {
  const client = useQueryClient();
  const [kind, setKind] = useState<Kind>('listenbrainz');
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [secret, setSecret] = useState('');
  const targets = useQuery({ queryKey: KEY, queryFn: () => query('app.svc.relay.listTargets', {}) });
  const refresh = () => client.invalidateQueries({ queryKey: KEY });
  const add = useMutation({
    mutationFn: () =>
      procedure('app.svc.relay.addTarget', { kind, name: name.trim(), ...(kind === 'lastfm' ? {} : { baseUrl: baseUrl.trim(), secret: secret.trim() }) }),
    onSuccess: () => {
      setName('');
      setBaseUrl('');
      setSecret('');
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => procedure('app.svc.relay.removeTarget', { id }), onSuccess: refresh });
  const retry = useMutation({ mutationFn: (id: string) => procedure('app.svc.relay.retryDeadLetters', { id }), onSuccess: refresh });
  const link = useMutation({
    mutationFn: (id: string) => procedure('app.svc.relay.linkLastfm', { id }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <SettingsSection id="relay" title="Relaying plays">
      <p className="muted">Every play you store from now on is sent on to these services too, with retries while they are down.</p>
      <form className="stack" onSubmit={submit}>
        <div className="inline-form">
          <label>
            Service
            <select value={kind} onChange={(e) => setKind(e.target.value as Kind)}>
              {KINDS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Name
            <input required maxLength={100} pattern=".*\S.*" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          {kind !== 'lastfm' && (
            <>
              <label>
                Server address
                <input required type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://api.listenbrainz.org" />
              </label>
              <label>
                {kind === 'listenbrainz' ? 'User token' : 'API key'}
                <input required type="password" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} />
              </label>
            </>
          )}
          <button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Adding…' : 'Add target'}
          </button>
        </div>
      </form>
      {[add, remove, retry, link].map((mutation, i) => mutation.isError && <ErrorNote key={i} error={mutation.error} />)}
      {targets.isPending ? (
        <Loading />
      ) : targets.isError ? (
        <ErrorNote error={targets.error} />
      ) : targets.data.targets.length === 0 ? (
        <Empty>No relay targets yet.</Empty>
      ) : (
        <ul className="settings-list">
          {targets.data.targets.map((target) => (
            <li key={target.id} className="apikey">
              <div className="apikey-head">
                <div>
                  <strong>{target.name}</strong> <span className="muted">· {KINDS.find(([value]) => value === target.kind)?.[1]}</span>
                  {target.accountName && <span className="muted"> as {target.accountName}</span>}
                  <div className="muted small">
                    {target.lastSuccessAt ? `Last delivered ${formatDate(target.lastSuccessAt)}` : 'Nothing delivered yet'} · {target.queued} queued ·{' '}
                    {target.deadLetterCount} dead letters
                  </div>
                  {target.lastError && <div className="small">Last error: {target.lastError}</div>}
                </div>
                <div className="inline-form">
                  {!target.linked && target.kind === 'lastfm' && (
                    <button type="button" disabled={link.isPending} onClick={() => link.mutate(target.id)}>
                      Link Last.fm account
                    </button>
                  )}
                  {target.deadLetterCount > 0 && (
                    <button type="button" className="secondary" disabled={retry.isPending} onClick={() => retry.mutate(target.id)}>
                      Retry dead letters
                    </button>
                  )}
                  <button
                    type="button"
                    className="secondary danger"
                    disabled={remove.isPending}
                    onClick={() => confirm(`Stop relaying to "${target.name}"? Its queue goes with it.`) && remove.mutate(target.id)}
                  >
                    Remove
                  </button>
                </div>
              </div>
              {target.deadLetters.length > 0 && (
                <details>
                  <summary>Dead letters</summary>
                  <ul className="small">
                    {target.deadLetters.map((letter) => (
                      <li key={`${letter.action} ${letter.scrobbleId}`}>
                        {letter.action === 'delete' && 'Deleting '}
                        {letter.artist} – {letter.title} ({formatDate(letter.listenedAt)}): {letter.error ?? letter.state}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}
