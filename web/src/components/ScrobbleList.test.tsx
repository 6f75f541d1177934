import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { renderWithQueries } from '../test-support.tsx';
import { ScrobbleList, type ScrobbleView } from './ScrobbleList.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const play = (i: number) =>
  ({
    id: `p${i}`,
    trackId: `t${i}`,
    title: `Song ${i}`,
    artist: 'Artist',
    handle: 'alice',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
  }) as ScrobbleView;

/** Two pages over the feed's cursor: 50 plays, then the last 10. */
function twoPages() {
  return vi.fn(async (cursor: string | undefined) =>
    cursor === undefined
      ? { scrobbles: Array.from({ length: 50 }, (_, i) => play(i)), cursor: 'after-49' }
      : { scrobbles: Array.from({ length: 10 }, (_, i) => play(50 + i)) },
  );
}

const shown = () => screen.getAllByRole('listitem').length;

test('"Load more" fetches the next page by the cursor and appends it; the last page has no button', async () => {
  const load = twoPages();
  renderWithQueries(<ScrobbleList queryKey={['plays', 'button']} load={load} empty={<p>none</p>} />);
  await screen.findByText('Song 0');
  expect(shown()).toBe(50);
  fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
  await screen.findByText('Song 59');
  expect(shown()).toBe(60);
  expect(load.mock.calls.map(([cursor]) => cursor)).toEqual([undefined, 'after-49']);
  expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
});

test('reaching the end of the list loads the next page by itself', async () => {
  const seen: ((entries: { isIntersecting: boolean }[]) => void)[] = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
        seen.push(callback);
      }
      observe() {}
      disconnect() {}
    },
  );
  const load = twoPages();
  renderWithQueries(<ScrobbleList queryKey={['plays', 'scroll']} load={load} empty={<p>none</p>} />);
  await screen.findByText('Song 49');
  // The marker after the last play comes into view.
  seen.at(-1)!([{ isIntersecting: true }]);
  await screen.findByText('Song 59');
  await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
});

test('no plays: the empty state the page gives', async () => {
  renderWithQueries(<ScrobbleList queryKey={['plays', 'empty']} load={async () => ({ scrobbles: [] })} empty={<p>Send your first play</p>} />);
  await screen.findByText('Send your first play');
});
