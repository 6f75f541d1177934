/**
 * The Media Session API: the song's title, artist, album and cover on the system's media controls
 * (lock screen, notification, hardware keys), and those controls wired to the player. Browsers
 * without it are left alone.
 */
import type { Song } from '../pages/library/logic.ts';
import { coverUrl } from './stream-urls.ts';

export interface MediaActions {
  play(): void;
  pause(): void;
  previous(): void;
  next(): void;
  seekTo(seconds: number): void;
}

const session = () => (typeof navigator !== 'undefined' && 'mediaSession' in navigator ? navigator.mediaSession : null);

export function showOnSystem(song: Song | null): void {
  const media = session();
  if (!media) return;
  if (!song) {
    media.metadata = null;
    return;
  }
  const cover = coverUrl(song);
  media.metadata = new MediaMetadata({
    title: song.title,
    artist: song.artist,
    album: song.album ?? '',
    artwork: cover ? [{ src: new URL(cover, location.href).href }] : [],
  });
}

/** Wires the system's controls to `actions`; the returned function unwires them. */
export function handleSystemControls(actions: MediaActions): () => void {
  const media = session();
  if (!media) return () => {};
  const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
    ['play', () => actions.play()],
    ['pause', () => actions.pause()],
    ['previoustrack', () => actions.previous()],
    ['nexttrack', () => actions.next()],
    ['seekto', (details) => details.seekTime !== undefined && actions.seekTo(details.seekTime)],
  ];
  for (const [action, handler] of handlers) {
    try {
      media.setActionHandler(action, handler);
    } catch {
      // An action this browser does not support.
    }
  }
  return () => {
    for (const [action] of handlers) {
      try {
        media.setActionHandler(action, null);
      } catch {
        // As above.
      }
    }
  };
}
