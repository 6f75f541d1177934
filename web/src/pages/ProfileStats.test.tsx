import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { renderWithQueries, stubXrpc } from '../test-support.tsx';
import { ProfileStats } from './ProfileStats.tsx';
import type { Output } from '../api/xrpc.ts';
import { localDate, type WrappedData } from './stats.ts';

type Song = Output<'app.svc.actor.getActorSongs'>['songs'][number];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A Wrapped whose one top song is named after the period (and year) it was asked for. */
function wrappedFor(params: URLSearchParams): WrappedData {
  const title = `Top of ${params.get('period')}${params.has('year') ? ` ${params.get('year')}` : ''}`;
  return {
    period: params.get('period'),
    totalScrobbles: 3,
    totalListeningTimeMinutes: 10,
    newArtistsCount: 1,
    longestStreak: 1,
    mostActiveHour: 21,
    topArtists: [],
    topAlbums: [],
    topTracks: [{ id: 's1', title, artist: 'Artist', uri: 'earshot:song:s1', playCount: 3 }],
  } as Partial<WrappedData> as WrappedData;
}

function stubStatistics() {
  return stubXrpc({
    'app.svc.stats.getWrapped': wrappedFor,
    'app.svc.charts.getScrobblesChart': () => ({ chart: [] }),
    'app.svc.stats.getListeningClock': () => ({ clock: [], timeZone: 'UTC' }),
    'app.svc.actor.getActorArtists': () => ({ artists: [] }),
    'app.svc.actor.getActorAlbums': () => ({ albums: [] }),
    'app.svc.actor.getActorSongs': () => ({ songs: [{ id: 's2', title: 'Top of all time', artist: 'Artist', playCount: 9 } as Partial<Song> as Song] }),
  });
}

const topSongs = () => within(screen.getByRole('region', { name: 'Top songs' }));
const choose = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

test('the period picker: the last 30 days first, then all time from the all-time lists, then a calendar year', async () => {
  const calls = stubStatistics();
  renderWithQueries(<ProfileStats handle="alice" timeZone="UTC" />);
  await screen.findByRole('link', { name: 'Top of last30days' });
  expect(calls('app.svc.stats.getWrapped').map((params) => params.get('period'))).toEqual(['last30days']);

  choose('Period', 'all');
  await waitFor(() => expect(topSongs().getByRole('link', { name: 'Top of all time' })).toBeTruthy());
  expect(calls('app.svc.actor.getActorSongs').map((params) => params.get('did'))).toEqual(['alice']);
  expect(screen.queryByRole('link', { name: 'See the full Wrapped for this period' })).toBeNull();

  choose('Period', 'year');
  const year = localDate(new Date(), 'UTC').slice(0, 4);
  await screen.findByRole('link', { name: `Top of year ${year}` });
  choose('Year', '2024');
  await screen.findByRole('link', { name: 'Top of year 2024' });
  expect(screen.getByRole('link', { name: 'See the full Wrapped for this period' }).getAttribute('href')).toMatch(/period=year&year=2024/);
});

test('a year outside 2000 to this one is not asked for', async () => {
  const calls = stubStatistics();
  renderWithQueries(<ProfileStats handle="alice" timeZone="UTC" />);
  choose('Period', 'year');
  choose('Year', '1999');
  await screen.findByRole('link', { name: /Top of year/ });
  expect(calls('app.svc.stats.getWrapped').some((params) => params.get('year') === '1999')).toBe(false);
});
