import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { FilterProblem, songsHref } from './Songs.tsx';

afterEach(cleanup);

test('FilterProblem marks the character the server points at, with a caret under it', () => {
  const { container } = render(<FilterProblem id="p" filter="title==x;plays>3" message='invalid filter: unknown field "plays" at position 10' position={10} />);
  expect(screen.getByRole('alert').textContent).toContain('unknown field "plays"');
  expect(screen.getByTestId('filter-mark').textContent).toBe('p');
  expect(container.querySelector('pre')!.textContent).toBe('title==x;plays>3\n         ^');
});

test('FilterProblem marks the end of the filter when the server points past it', () => {
  render(<FilterProblem id="p" filter="title==" message="invalid filter: expected a value, found the end of the filter at position 8" position={8} />);
  expect(screen.getByTestId('filter-mark').textContent).toBe(' ');
});

test('songsHref keeps only what differs from the defaults', () => {
  expect(songsHref({ filter: ' ', sort: '-createdAt', offset: 0 })).toBe('/songs');
  expect(songsHref({ filter: 'a==b;c>1', sort: 'title', offset: 50 })).toBe('/songs?filter=a%3D%3Db%3Bc%3E1&sort=title&offset=50');
});

test('songsHref links the most played songs', () => {
  expect(songsHref({ sort: '-playCount' })).toBe('/songs?sort=-playCount');
});
