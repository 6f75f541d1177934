/** The player's keyboard shortcuts, kept out of the way of typing and of the focused control's own keys. */

export type Shortcut = 'toggle' | 'next' | 'previous';

/** What a shortcut's hint says, shown in the player bar. */
export const SHORTCUT_HINT = 'Space: play or pause · Shift+N: next · Shift+P: previous';

/** The part of a keydown event a shortcut depends on. */
export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: { tagName?: string; isContentEditable?: boolean } | null;
}

/** Elements whose own keys Space or letters are: text fields, and buttons, links and lists Space activates. */
const OWN_KEYS = new Set(['INPUT', 'TEXTAREA', 'SELECT', 'BUTTON', 'A', 'SUMMARY', 'AUDIO']);

export function shortcutFor(press: KeyPress): Shortcut | null {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  const target = press.target;
  if (target && (target.isContentEditable || OWN_KEYS.has(target.tagName?.toUpperCase() ?? ''))) return null;
  if (press.key === ' ' && !press.shiftKey) return 'toggle';
  if (press.shiftKey && press.key.toUpperCase() === 'N') return 'next';
  if (press.shiftKey && press.key.toUpperCase() === 'P') return 'previous';
  return null;
}
