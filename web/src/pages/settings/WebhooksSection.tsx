/** Webhooks (app.svc.webhook.*): URLs told of plays, now-playing and loves; the signing secret shown once, a test event, and each hook's delivery log. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { procedure, query, type Input, type Output } from '../../api/xrpc.ts';
import { Empty, ErrorNote, Loading, formatDate } from '../../components/ui.tsx';
import { CopyValue, SecretOnce, SettingsSection } from './shared.tsx';

const KEY = ['settings', 'webhooks'];
type Hook = Output<'app.svc.webhook.listHooks'>['hooks'][number];
type Delivery = Output<'app.svc.webhook.testHook'>;
type HookEvent = Input<'app.svc.webhook.createHook'>['events'][number];
const EVENTS: readonly [HookEvent, string][] = [
  ['scrobble', 'Each play stored'],
  ['nowPlaying', 'What you are playing now'],
  ['love', 'Each song you love or stop loving'],
];
const EVENT_NAMES: Record<Delivery['event'], string> = { scrobble: 'play', nowPlaying: 'now playing', love: 'love', test: 'test' };

/** One delivery in words: what, how it ended, the receiver's status and how long it took. */
function deliverySummary(delivery: Delivery): string {
  const answer = delivery.status === null ? 'no answer' : `answered ${delivery.status}`;
  const duration = delivery.durationMs === null ? '' : ` in ${delivery.durationMs} ms`;
  const tries = delivery.attempts === 1 ? '1 try' : `${delivery.attempts} tries`;
  return `${EVENT_NAMES[delivery.event]} · ${delivery.state} · ${delivery.attempts === 0 ? 'not tried yet' : `${answer}${duration} · ${tries}`}`;
}

export function WebhooksSection() {
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<HookEvent[]>(['scrobble']);
  const hooks = useQuery({ queryKey: KEY, queryFn: () => query('app.svc.webhook.listHooks', {}) });
  const refresh = () => client.invalidateQueries({ queryKey: KEY });
  const create = useMutation({
    mutationFn: () => procedure('app.svc.webhook.createHook', { url: url.trim(), events }),
    onSuccess: () => {
      setUrl('');
      void refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: string) => procedure('app.svc.webhook.deleteHook', { id }), onSuccess: refresh });
  const toggle = (event: HookEvent, on: boolean) => setEvents((chosen) => (on ? [...chosen, event] : chosen.filter((other) => other !== event)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (events.length > 0) create.mutate();
  };
  return (
    <SettingsSection id="webhooks" title="Webhooks">
      <p className="muted">
        Earshot POSTs a signed JSON message to each URL when the events you choose happen, and retries until your receiver answers 2xx. See the documentation
        for verifying the signature.
      </p>
      {create.data && (
        <SecretOnce title="Webhook created" onDone={() => create.reset()}>
          <p className="small">
            Earshot signs every delivery to {create.data.hook.url} with this secret (the Earshot-Signature header), so your receiver can tell its messages are
            genuine. To change it later, delete the webhook and add it again.
          </p>
          <dl className="client-values">
            <CopyValue label="Signing secret" value={create.data.secret} />
          </dl>
        </SecretOnce>
      )}
      <form className="stack" onSubmit={submit}>
        <label>
          URL
          <input required type="url" maxLength={2048} value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.org/earshot-hook" />
        </label>
        <fieldset className="checks">
          <legend>Events</legend>
          {EVENTS.map(([value, label]) => (
            <label key={value} className="checkbox">
              <input type="checkbox" checked={events.includes(value)} onChange={(e) => toggle(value, e.target.checked)} />
              {label}
            </label>
          ))}
        </fieldset>
        {events.length === 0 && (
          <p className="error" role="alert">
            Choose at least one event.
          </p>
        )}
        <div className="actions">
          <button type="submit" disabled={create.isPending || events.length === 0}>
            {create.isPending ? 'Adding…' : 'Add webhook'}
          </button>
        </div>
      </form>
      {create.isError && <ErrorNote error={create.error} />}
      {remove.isError && <ErrorNote error={remove.error} />}
      {hooks.isPending ? (
        <Loading />
      ) : hooks.isError ? (
        <ErrorNote error={hooks.error} />
      ) : hooks.data.hooks.length === 0 ? (
        <Empty>No webhooks yet.</Empty>
      ) : (
        <ul className="settings-list">
          {hooks.data.hooks.map((hook) => (
            <HookItem key={hook.id} hook={hook} removing={remove.isPending} onRemove={() => remove.mutate(hook.id)} />
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}

function HookItem({ hook, removing, onRemove }: { hook: Hook; removing: boolean; onRemove: () => void }) {
  const client = useQueryClient();
  const [logOpen, setLogOpen] = useState(false);
  const test = useMutation({
    mutationFn: () => procedure('app.svc.webhook.testHook', { id: hook.id }),
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
  return (
    <li className="apikey">
      <div className="apikey-head">
        <div>
          <code>{hook.url}</code>
          <div className="muted small">
            {hook.events.map((event) => EVENT_NAMES[event]).join(', ')} · added {formatDate(hook.createdAt)} · {hook.queued} queued
          </div>
          <div className="small">{hook.lastDelivery ? `Last delivery: ${deliverySummary(hook.lastDelivery)}` : 'Nothing delivered yet'}</div>
        </div>
        <div className="inline-form">
          <button type="button" disabled={test.isPending} aria-label={`Send test event to ${hook.url}`} onClick={() => test.mutate()}>
            {test.isPending ? 'Sending…' : 'Send test event'}
          </button>
          <button
            type="button"
            className="secondary danger"
            disabled={removing}
            aria-label={`Delete webhook ${hook.url}`}
            onClick={() => confirm(`Delete the webhook to ${hook.url}? Its queue and log go with it.`) && onRemove()}
          >
            Delete
          </button>
        </div>
      </div>
      <div role="status" aria-live="polite" className="small">
        {test.data && (
          <>
            Test event: <DeliveryLine delivery={test.data} />
          </>
        )}
      </div>
      {test.isError && <ErrorNote error={test.error} />}
      <details onToggle={(e) => setLogOpen(e.currentTarget.open)}>
        <summary>Delivery log</summary>
        {logOpen && <DeliveryLog hookId={hook.id} />}
      </details>
    </li>
  );
}

function DeliveryLine({ delivery }: { delivery: Delivery }) {
  return (
    <>
      {formatDate(delivery.attemptedAt ?? delivery.createdAt)}: {deliverySummary(delivery)}
      {delivery.response && (
        <>
          <br />
          <code className="response-excerpt">{delivery.response}</code>
        </>
      )}
    </>
  );
}

/** The hook's newest deliveries, read when the log is opened (and again after a test event). */
function DeliveryLog({ hookId }: { hookId: string }) {
  const log = useQuery({ queryKey: [...KEY, hookId, 'deliveries'], queryFn: () => query('app.svc.webhook.listDeliveries', { id: hookId }) });
  if (log.isPending) return <Loading />;
  if (log.isError) return <ErrorNote error={log.error} />;
  if (log.data.deliveries.length === 0) return <Empty>No deliveries yet.</Empty>;
  return (
    <ul className="small delivery-log">
      {log.data.deliveries.map((delivery) => (
        <li key={delivery.deliveryId}>
          <DeliveryLine delivery={delivery} />
        </li>
      ))}
    </ul>
  );
}
