import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import type { Input } from '../../api/xrpc.ts';
import { renderWithQueries, stubXrpc } from '../../test-support.tsx';
import { SyncSection } from './SyncSection.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const source = {
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'listenbrainz' as const,
  username: 'rob',
  baseUrl: 'https://api.listenbrainz.org',
  state: 'initial' as 'initial' | 'incremental' | 'paused' | 'error',
  running: true,
  pass: { fetched: 2500, expected: 10000, from: null, to: '2026-11-27T10:00:00.000Z' },
  historyDoneAt: null,
  syncedUntil: null,
  fetched: 2500,
  stored: 2400,
  duplicate: 100,
  ignored: 0,
  nextRunAt: null,
  lastRunAt: '2026-11-27T10:00:00.000Z',
  lastSuccessAt: null,
  lastError: null as string | null,
  lastErrorAt: null as string | null,
};
const failing = {
  ...source,
  id: '00000000-0000-4000-8000-000000000002',
  kind: 'lastfm' as const,
  username: 'rj',
  baseUrl: null,
  state: 'error' as const,
  running: false,
  pass: null,
  lastError: 'Last.fm error 6: User not found',
  lastErrorAt: '2026-11-27T10:05:00.000Z',
};

test('each source shows its state, its pass as fetched of expected, its totals and its last error', async () => {
  stubXrpc({ 'app.svc.sync.listSources': () => ({ sources: [source, failing] }) });
  renderWithQueries(<SyncSection />);
  expect(await screen.findByText('rob')).toBeTruthy();
  expect(screen.getByText(/Pulling the whole history/)).toBeTruthy();
  expect(screen.getByText(/2,500 fetched of 10,000/)).toBeTruthy();
  expect(screen.getByRole('progressbar', { name: 'rob at ListenBrainz: plays fetched in this pass' })).toBeTruthy();
  expect(screen.getAllByText(/2,400 stored · 100 duplicates/)).toHaveLength(2);
  expect(screen.getByText(/Failing/)).toBeTruthy();
  expect(screen.getByText(/User not found/)).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Run now: rj at Last.fm' })).toBeTruthy();
});

test('adding a ListenBrainz source sends the user name and server; pause and run now say what they did', async () => {
  const added = vi.fn((input: Input<'app.svc.sync.addSource'>) => ({ ...source, ...input, baseUrl: input.baseUrl ?? null }));
  const paused = vi.fn(({ paused }: { id: string; paused: boolean }) => ({ ...source, state: paused ? ('paused' as const) : ('incremental' as const) }));
  stubXrpc({
    'app.svc.sync.listSources': () => ({ sources: [source] }),
    'app.svc.sync.addSource': added,
    'app.svc.sync.setPaused': paused,
    'app.svc.sync.runNow': () => source,
  });
  renderWithQueries(<SyncSection />);
  await screen.findByText('rob');
  fireEvent.change(screen.getByLabelText('User name'), { target: { value: 'alice' } });
  fireEvent.change(screen.getByLabelText('Server address (optional)'), { target: { value: 'https://lb.example/1/' } });
  fireEvent.click(screen.getByRole('button', { name: 'Add source' }));
  await waitFor(() => expect(added).toHaveBeenCalledWith({ kind: 'listenbrainz', username: 'alice', baseUrl: 'https://lb.example/1/' }));
  expect(await screen.findByText(/Added alice at ListenBrainz/)).toBeTruthy();

  fireEvent.click(screen.getByRole('button', { name: 'Pause: rob at ListenBrainz' }));
  await waitFor(() => expect(paused).toHaveBeenCalledWith({ id: source.id, paused: true }));
  expect((await screen.findByText('Paused rob at ListenBrainz.')).getAttribute('role')).toBe('status');

  fireEvent.click(screen.getByRole('button', { name: 'Run now: rob at ListenBrainz' }));
  expect(await screen.findByText('Looking for new plays at rob at ListenBrainz now.')).toBeTruthy();
});

test('a Last.fm source takes no server address', async () => {
  const added = vi.fn((input: Input<'app.svc.sync.addSource'>) => ({ ...failing, ...input, baseUrl: null }));
  stubXrpc({ 'app.svc.sync.listSources': () => ({ sources: [] }), 'app.svc.sync.addSource': added });
  renderWithQueries(<SyncSection />);
  expect(await screen.findByText('No sync sources yet.')).toBeTruthy();
  fireEvent.change(screen.getByLabelText('Service'), { target: { value: 'lastfm' } });
  expect(screen.queryByLabelText('Server address (optional)')).toBeNull();
  fireEvent.change(screen.getByLabelText('User name'), { target: { value: 'rj' } });
  fireEvent.click(screen.getByRole('button', { name: 'Add source' }));
  await waitFor(() => expect(added).toHaveBeenCalledWith({ kind: 'lastfm', username: 'rj' }));
});
