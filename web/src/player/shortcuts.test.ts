import { expect, test } from 'vitest';
import { shortcutFor, type KeyPress } from './shortcuts.ts';

const press = (key: string, change: Partial<KeyPress> = {}): KeyPress => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target: { tagName: 'BODY' },
  ...change,
});

test('Space plays or pauses, Shift+N and Shift+P move through the queue', () => {
  expect(shortcutFor(press(' '))).toBe('toggle');
  expect(shortcutFor(press('N', { shiftKey: true }))).toBe('next');
  expect(shortcutFor(press('P', { shiftKey: true }))).toBe('previous');
  expect(shortcutFor(press('n'))).toBeNull();
});

test('no shortcut while typing, on a control that Space activates, or with a modifier', () => {
  for (const tagName of ['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'A']) expect(shortcutFor(press(' ', { target: { tagName } }))).toBeNull();
  expect(shortcutFor(press(' ', { target: { tagName: 'DIV', isContentEditable: true } }))).toBeNull();
  expect(shortcutFor(press(' ', { ctrlKey: true }))).toBeNull();
  expect(shortcutFor(press('N', { shiftKey: true, metaKey: true }))).toBeNull();
});
