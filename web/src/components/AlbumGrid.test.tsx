import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { AlbumGrid } from './AlbumGrid.tsx';

afterEach(cleanup);

const albums = [
  { id: '1', href: '/library/albums/1', title: 'Long Roads', artist: 'The Drivers', cover: '/covers/1', detail: '2024 · 2 songs' },
  { id: '2', href: '/library/albums/2', title: 'Quiet Rooms' },
];

test('each album is one link, named by its title, artist and details, with its cover or a placeholder', () => {
  const { container } = render(<AlbumGrid label="albums" albums={albums} />);
  expect(screen.getByRole('list', { name: 'albums' }).tagName).toBe('UL');
  const first = screen.getByRole('link', { name: /^Long Roads/ });
  expect(first.getAttribute('href')).toBe('/library/albums/1');
  expect([...first.querySelectorAll('span:not(.art)')].map((span) => span.textContent)).toEqual(['Long Roads', 'The Drivers', '2024 · 2 songs']);
  expect(first.querySelector('img')!.getAttribute('loading')).toBe('lazy');
  const second = screen.getByRole('link', { name: /^Quiet Rooms/ });
  expect(second.querySelector('.art-placeholder')!.textContent).toBe('QR');
  expect(container.querySelectorAll('.album-card')).toHaveLength(2);
});

test('a ranking is an ordered list', () => {
  render(<AlbumGrid label="Most played albums" albums={albums} ranked />);
  expect(screen.getByRole('list', { name: 'Most played albums' }).tagName).toBe('OL');
});
