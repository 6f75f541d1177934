import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { renderWithQueries, stubXrpc } from '../../test-support.tsx';
import { ClientSetup } from './client-setup.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const INFO = { apiUrl: 'https://music.example.com', scrobblerUrl: 'https://scrobble.example.com' };

/** The values listed under one client's heading, by label. */
async function valuesOf(client: string): Promise<Record<string, string>> {
  const box = (await screen.findByRole('heading', { name: client })).parentElement!;
  const labels = within(box)
    .getAllByRole('term')
    .map((term) => term.textContent!);
  const values = within(box)
    .getAllByRole('definition')
    .map((definition) => definition.querySelector('code')?.textContent ?? definition.textContent!);
  return Object.fromEntries(labels.map((label, i) => [label, values[i]!]));
}

test("a new key: each protocol's URL at this server, with the key and secret where each client wants them", async () => {
  stubXrpc({ 'app.svc.server.getInfo': () => INFO });
  renderWithQueries(<ClientSetup handle="alice" secrets={{ key: 'key-123', sharedSecret: 'secret-456' }} />);
  expect(await valuesOf('ListenBrainz clients')).toEqual({ 'Server URL (API root)': 'https://scrobble.example.com/1/', 'User token': 'key-123' });
  expect(await valuesOf('Last.fm clients')).toEqual({ 'API root': 'https://scrobble.example.com/2.0/', 'API key': 'key-123', 'Shared secret': 'secret-456' });
  expect(await valuesOf('Audioscrobbler 1.2 players')).toEqual({ 'Handshake URL': 'https://scrobble.example.com/', Username: 'alice', Password: 'key-123' });
  expect(await valuesOf('Subsonic players')).toEqual({ Server: 'https://music.example.com', Username: 'alice', Password: 'key-123' });
});

test('an existing key: the URLs, and words in place of the secrets shown only once', async () => {
  stubXrpc({ 'app.svc.server.getInfo': () => INFO });
  renderWithQueries(<ClientSetup handle="alice" />);
  const lastfm = await valuesOf('Last.fm clients');
  expect(lastfm['API root']).toBe('https://scrobble.example.com/2.0/');
  expect(lastfm['API key']).toMatch(/shown once/);
  expect(lastfm['Shared secret']).toMatch(/shared secret \(shown once/);
});

test("the server's error, in words, when its addresses cannot be read", async () => {
  stubXrpc({});
  renderWithQueries(<ClientSetup handle="alice" />);
  expect((await screen.findByRole('alert')).textContent).toContain('no stub for /xrpc/app.svc.server.getInfo');
});
