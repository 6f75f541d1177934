import { cleanup, render, screen } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { PageBoundary } from './PageBoundary.tsx';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** A lazy page whose chunk cannot be fetched, as when the connection is gone. */
const Unreachable = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));

test('a page whose chunk fails to load shows a note and a reload button; what is outside the page stays', async () => {
  // React reports the caught error on the console; it is the expected one here.
  vi.spyOn(console, 'error').mockImplementation(() => {});
  render(
    <>
      <header>top bar</header>
      <PageBoundary path="/search">
        <Suspense fallback={<p>Loading…</p>}>
          <Unreachable />
        </Suspense>
      </PageBoundary>
    </>,
  );
  expect(await screen.findByRole('heading', { name: 'This page could not load' })).toBeTruthy();
  expect(screen.getByRole('alert').textContent).toMatch(/reload|offline/i);
  expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  expect(screen.getByRole('banner').textContent).toBe('top bar');
});

test('moving to another page clears the note', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const { rerender } = render(
    <PageBoundary path="/search">
      <Suspense fallback={null}>
        <Unreachable />
      </Suspense>
    </PageBoundary>,
  );
  await screen.findByRole('heading', { name: 'This page could not load' });
  rerender(
    <PageBoundary path="/songs">
      <p>songs</p>
    </PageBoundary>,
  );
  expect(screen.getByText('songs')).toBeTruthy();
  expect(screen.queryByRole('heading', { name: 'This page could not load' })).toBeNull();
});
