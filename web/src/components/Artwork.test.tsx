import { cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { Artwork, artworkColour, artworkHue, artworkInitials } from './Artwork.tsx';

afterEach(cleanup);

test('initials: the first letters of two words, or two letters of one, accents and case kept as letters', () => {
  expect(artworkInitials('Random Access Memories')).toBe('RA');
  expect(artworkInitials('björk')).toBe('BJ');
  expect(artworkInitials('  the (deluxe) edition ')).toBe('TD');
  expect(artworkInitials('…')).toBe('♪');
});

test('the colour is the same for the same name, whatever the case, and differs between names', () => {
  expect(artworkHue('Homogenic')).toBe(artworkHue('HOMOGENIC'));
  expect(artworkColour('Homogenic')).toBe(artworkColour('Homogenic'));
  expect(artworkHue('Homogenic')).not.toBe(artworkHue('Debut'));
  for (const name of ['', 'a', 'Björk', '東京事変']) {
    expect(artworkHue(name)).toBeGreaterThanOrEqual(0);
    expect(artworkHue(name)).toBeLessThan(360);
  }
});

test('no picture shows the placeholder with initials and a colour; a picture that fails to load falls back to it', () => {
  const { container, rerender } = render(<Artwork name="Post" />);
  const placeholder = container.querySelector('.art-placeholder') as HTMLElement;
  expect(placeholder.textContent).toBe('PO');
  expect(placeholder.style.backgroundColor).not.toBe('');

  rerender(<Artwork src="/covers/1" name="Post" />);
  const img = container.querySelector('img')!;
  expect(img.getAttribute('src')).toBe('/covers/1');
  fireEvent.error(img);
  expect(container.querySelector('img')).toBeNull();
  expect(container.querySelector('.art-placeholder')!.textContent).toBe('PO');
});
