/** Sync sources (app.svc.sync.*): ListenBrainz and Last.fm accounts whose plays are pulled in, each with its state, progress and controls. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { procedure, query, type Output } from '../../api/xrpc.ts';
import { Empty, ErrorNote, Loading, formatDate } from '../../components/ui.tsx';
import { SettingsSection } from './shared.tsx';

const KEY = ['settings', 'sync'];
/** While a source is pulling its history or running, its progress is read again this often. */
const BUSY_REFRESH_MS = 5000;

type Source = Output<'app.svc.sync.listSources'>['sources'][number];
type Kind = Source['kind'];
const KINDS: readonly [Kind, string][] = [
  ['listenbrainz', 'ListenBrainz'],
  ['lastfm', 'Last.fm'],
];
const kindName = (kind: Kind) => KINDS.find(([value]) => value === kind)?.[1] ?? kind;
const STATES: Record<Source['state'], string> = {
  initial: 'Pulling the whole history',
  incremental: 'Up to date, looking for new plays on a schedule',
  paused: 'Paused',
  error: 'Failing, retried with a growing delay',
};
const count = (n: number) => n.toLocaleString();
/** How a source is named to people and screen readers: "rob at ListenBrainz". */
const sourceName = (source: Source) => `${source.username} at ${kindName(source.kind)}`;

export function SyncSection() {
  const client = useQueryClient();
  const [kind, setKind] = useState<Kind>('listenbrainz');
  const [username, setUsername] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [note, setNote] = useState('');
  const sources = useQuery({
    queryKey: KEY,
    queryFn: () => query('app.svc.sync.listSources', {}),
    refetchInterval: (current) => (current.state.data?.sources.some((source) => source.running || source.state === 'initial') ? BUSY_REFRESH_MS : false),
  });
  const refresh = () => client.invalidateQueries({ queryKey: KEY });
  const done = (message: string) => {
    setNote(message);
    void refresh();
  };
  const add = useMutation({
    mutationFn: () =>
      procedure('app.svc.sync.addSource', {
        kind,
        username: username.trim(),
        ...(kind === 'listenbrainz' && baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
      }),
    onSuccess: (source) => {
      setUsername('');
      setBaseUrl('');
      done(`Added ${sourceName(source)}: its history is being pulled in.`);
    },
  });
  const remove = useMutation({
    mutationFn: (source: Source) => procedure('app.svc.sync.removeSource', { id: source.id }),
    onSuccess: (_, source) => done(`Stopped syncing ${sourceName(source)}.`),
  });
  const pause = useMutation({
    mutationFn: ({ source, paused }: { source: Source; paused: boolean }) => procedure('app.svc.sync.setPaused', { id: source.id, paused }),
    onSuccess: (source) => done(`${source.state === 'paused' ? 'Paused' : 'Resumed'} ${sourceName(source)}.`),
  });
  const run = useMutation({
    mutationFn: (source: Source) => procedure('app.svc.sync.runNow', { id: source.id }),
    onSuccess: (source) => done(`Looking for new plays at ${sourceName(source)} now.`),
  });
  const busy = remove.isPending || pause.isPending || run.isPending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <SettingsSection id="sync" title="Syncing plays in">
      <p className="muted">
        Pull your plays from a ListenBrainz or Last.fm account: the whole history first, then new plays every half hour. Plays you already have are skipped.
      </p>
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
            User name
            <input
              required
              maxLength={100}
              pattern="[^\s\/?#]+"
              title="A user name without spaces or slashes"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
            />
          </label>
          {kind === 'listenbrainz' && (
            <label>
              Server address (optional)
              <input type="url" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://api.listenbrainz.org" />
            </label>
          )}
          <button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Adding…' : 'Add source'}
          </button>
        </div>
      </form>
      <p role="status" aria-live="polite" className="muted small">
        {note}
      </p>
      {[add, remove, pause, run].map((mutation, i) => mutation.isError && <ErrorNote key={i} error={mutation.error} />)}
      {sources.isPending ? (
        <Loading />
      ) : sources.isError ? (
        <ErrorNote error={sources.error} />
      ) : sources.data.sources.length === 0 ? (
        <Empty>No sync sources yet.</Empty>
      ) : (
        <ul className="settings-list">
          {sources.data.sources.map((source) => (
            <li key={source.id} className="apikey">
              <div className="apikey-head">
                <div>
                  <strong>{source.username}</strong> <span className="muted">· {kindName(source.kind)}</span>
                  {source.baseUrl && <div className="muted small">{source.baseUrl}</div>}
                  <div>
                    {STATES[source.state]}
                    {source.running && ' · running now'}
                  </div>
                  <SourceProgress source={source} />
                  {source.lastError && (
                    <div className="small">
                      Last error{source.lastErrorAt && ` (${formatDate(source.lastErrorAt)})`}: {source.lastError}
                    </div>
                  )}
                </div>
                <div className="inline-form">
                  <button type="button" disabled={busy} aria-label={`Run now: ${sourceName(source)}`} onClick={() => run.mutate(source)}>
                    Run now
                  </button>
                  <button
                    type="button"
                    className="secondary"
                    disabled={busy}
                    aria-label={`${source.state === 'paused' ? 'Resume' : 'Pause'}: ${sourceName(source)}`}
                    onClick={() => pause.mutate({ source, paused: source.state !== 'paused' })}
                  >
                    {source.state === 'paused' ? 'Resume' : 'Pause'}
                  </button>
                  <button
                    type="button"
                    className="secondary danger"
                    disabled={busy}
                    aria-label={`Remove: ${sourceName(source)}`}
                    onClick={() => confirm(`Stop syncing ${sourceName(source)}? The plays it brought stay.`) && remove.mutate(source)}
                  >
                    Remove
                  </button>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}

/** The pass in progress (fetched of expected, as a bar when the service said how many), the totals, and when it ran. */
function SourceProgress({ source }: { source: Source }) {
  const { pass } = source;
  return (
    <>
      {pass && (
        <div className="small">
          This pass: {count(pass.fetched)} fetched{pass.expected !== null && ` of ${count(pass.expected)}`}
          {pass.expected !== null && pass.expected > 0 && (
            <progress max={pass.expected} value={Math.min(pass.fetched, pass.expected)} aria-label={`${sourceName(source)}: plays fetched in this pass`} />
          )}
        </div>
      )}
      <div className="muted small">
        {count(source.fetched)} fetched · {count(source.stored)} stored · {count(source.duplicate)} duplicates
        {source.ignored > 0 && ` · ${count(source.ignored)} ignored`}
      </div>
      <div className="muted small">
        {source.lastRunAt ? `Last run ${formatDate(source.lastRunAt)}` : 'Not run yet'}
        {source.historyDoneAt && ` · history complete since ${formatDate(source.historyDoneAt)}`}
        {source.nextRunAt && source.state !== 'paused' && ` · next run ${formatDate(source.nextRunAt)}`}
      </div>
    </>
  );
}
