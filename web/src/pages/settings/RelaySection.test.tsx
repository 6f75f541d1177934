import { cleanup, screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { renderWithQueries, stubXrpc } from '../../test-support.tsx';
import { RelaySection } from './RelaySection.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const target = {
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'maloja' as const,
  name: 'My Maloja',
  baseUrl: 'https://maloja.example',
  linked: true,
  accountName: null,
  relayImports: false,
  importsFrom: null,
  importsUntil: null,
  lastSuccessAt: '2026-11-27T10:00:00.000Z',
  lastError: 'Maloja authentication_fail: Invalid or missing authentication',
  lastErrorAt: '2026-11-27T10:05:00.000Z',
  queued: 3,
  deadLetterCount: 1,
  deadLetters: [
    {
      scrobbleId: '00000000-0000-4000-8000-000000000002',
      action: 'scrobble' as const,
      artist: 'Artist',
      title: 'Song',
      listenedAt: '2026-11-27T09:00:00.000Z',
      state: 'refused' as const,
      error: 'Maloja authentication_fail: Invalid or missing authentication',
    },
  ],
};

test("each target shows its queue, dead letters with the target's error, and a retry button; an unlinked Last.fm target a link button", async () => {
  stubXrpc({
    'app.svc.relay.listTargets': () => ({
      targets: [
        target,
        { ...target, id: `${target.id.slice(0, -1)}3`, kind: 'lastfm', name: 'Last.fm', linked: false, deadLetterCount: 0, deadLetters: [], lastError: null },
      ],
    }),
  });
  renderWithQueries(<RelaySection />);
  expect(await screen.findByText('My Maloja')).toBeTruthy();
  expect(screen.getAllByText(/3 queued · 1 dead letters/)).toHaveLength(1);
  expect(screen.getByRole('button', { name: 'Retry dead letters' })).toBeTruthy();
  expect(screen.getByText(/Song .*authentication_fail/)).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Link Last.fm account' })).toBeTruthy();
});
