import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { renderWithQueries, stubXrpc } from '../../test-support.tsx';
import { WebhooksSection } from './WebhooksSection.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const delivered = {
  deliveryId: '00000000-0000-4000-8000-0000000000d1',
  event: 'scrobble' as const,
  state: 'delivered' as const,
  attempts: 1,
  status: 200,
  response: 'ok',
  durationMs: 42,
  attemptedAt: '2026-11-27T10:00:00.000Z',
  createdAt: '2026-11-27T10:00:00.000Z',
};
const hook = {
  id: '00000000-0000-4000-8000-000000000001',
  url: 'https://example.org/earshot-hook',
  events: ['scrobble' as const, 'love' as const],
  createdAt: '2026-11-27T09:00:00.000Z',
  lastDelivery: delivered,
  queued: 2,
};

test('each hook shows its URL, events, queue and last delivery; the log lists deliveries with status, duration and the answer', async () => {
  const dead = {
    ...delivered,
    deliveryId: '00000000-0000-4000-8000-0000000000d2',
    state: 'dead' as const,
    attempts: 8,
    status: null,
    response: 'connection refused',
  };
  stubXrpc({
    'app.svc.webhook.listHooks': () => ({ hooks: [hook] }),
    'app.svc.webhook.listDeliveries': () => ({ deliveries: [dead, delivered] }),
  });
  renderWithQueries(<WebhooksSection />);
  expect(await screen.findByText('https://example.org/earshot-hook')).toBeTruthy();
  expect(screen.getByText(/play, love · added .* · 2 queued/)).toBeTruthy();
  expect(screen.getByText(/Last delivery: play · delivered · answered 200 in 42 ms · 1 try/)).toBeTruthy();
  const log = screen.getByText('Delivery log').closest('details')!;
  log.open = true;
  fireEvent(log, new Event('toggle'));
  expect(await within(log).findByText(/dead · no answer in 42 ms · 8 tries/)).toBeTruthy();
  expect(within(log).getByText('connection refused')).toBeTruthy();
  expect(within(log).getByText('ok')).toBeTruthy();
});

test('creating a hook sends the URL and the checked events, and shows the secret once with a copy button', async () => {
  const created = vi.fn((input: { url: string; events: string[] }) => ({ hook: { ...hook, ...input, events: hook.events }, secret: 'whsec_abc123' }));
  stubXrpc({ 'app.svc.webhook.listHooks': () => ({ hooks: [] }), 'app.svc.webhook.createHook': created });
  renderWithQueries(<WebhooksSection />);
  expect(await screen.findByText('No webhooks yet.')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('URL'), { target: { value: 'https://example.org/earshot-hook' } });
  fireEvent.click(screen.getByLabelText('Each play stored'));
  expect((screen.getByRole('button', { name: 'Add webhook' }) as HTMLButtonElement).disabled).toBe(true);
  expect(screen.getByRole('alert').textContent).toBe('Choose at least one event.');
  fireEvent.click(screen.getByLabelText('Each song you love or stop loving'));
  fireEvent.click(screen.getByLabelText('What you are playing now'));
  fireEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
  await waitFor(() => expect(created).toHaveBeenCalledWith({ url: 'https://example.org/earshot-hook', events: ['love', 'nowPlaying'] }));
  const secret = await screen.findByRole('region', { name: 'Webhook created' });
  expect(within(secret).getByText('whsec_abc123')).toBeTruthy();
  expect(within(secret).getByText(/Copy it now: it is not shown again/)).toBeTruthy();
  expect(within(secret).getByRole('button', { name: 'Copy' })).toBeTruthy();
  fireEvent.click(within(secret).getByRole('button', { name: 'I have copied it' }));
  await waitFor(() => expect(screen.queryByText('whsec_abc123')).toBeNull());
});

test('"Send test event" shows the resulting log entry where screen readers hear it', async () => {
  const tested = vi.fn(() => ({ ...delivered, event: 'test' as const, status: 404, response: 'no such hook', durationMs: 7 }));
  stubXrpc({ 'app.svc.webhook.listHooks': () => ({ hooks: [hook] }), 'app.svc.webhook.testHook': tested });
  renderWithQueries(<WebhooksSection />);
  fireEvent.click(await screen.findByRole('button', { name: 'Send test event to https://example.org/earshot-hook' }));
  await waitFor(() => expect(tested).toHaveBeenCalledWith({ id: hook.id }));
  const status = await screen.findByText(/Test event: .*test · delivered · answered 404 in 7 ms/);
  expect(status.closest('[role="status"]')).toBeTruthy();
  expect(screen.getByText('no such hook')).toBeTruthy();
});
