/**
 * Correcting a play (app.svc.scrobble.updateScrobble): what the form sends, only what changed, and
 * what is wrong with a draft, in words, before the server is asked. The time is edited as the
 * browser's local time (an <input type="datetime-local"> value).
 */
import type { Input } from '../api/xrpc.ts';
import { XrpcFailure } from '../api/xrpc.ts';

export interface PlayDraft {
  artist: string;
  title: string;
  album: string;
  time: string;
}

interface Play {
  id: string;
  artist: string;
  title: string;
  album?: string | undefined;
  createdAt: string;
}

/** How far ahead of now a play may be: the server's own allowance for clients' clocks. */
const MAX_FUTURE_MS = 24 * 60 * 60 * 1000;
/** The longest artist, title or album the server stores. */
export const MAX_NAME_LENGTH = 1024;

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local value in the browser's time zone, to the second. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export const draftOf = (play: Play): PlayDraft => ({ artist: play.artist, title: play.title, album: play.album ?? '', time: toLocalInput(play.createdAt) });

function nameProblem(label: string, value: string, required: boolean): string | null {
  if (required && !value.trim()) return `Give the ${label}.`;
  if (value.length > MAX_NAME_LENGTH) return `The ${label} is longer than ${MAX_NAME_LENGTH} characters.`;
  return null;
}

/** The updateScrobble input for the changes in `draft`, or what to fix first. */
export function correctionInput(
  play: Play,
  draft: PlayDraft,
  now: number = Date.now(),
): { input: Input<'app.svc.scrobble.updateScrobble'> } | { problem: string } {
  const problem = nameProblem('artist', draft.artist, true) ?? nameProblem('title', draft.title, true) ?? nameProblem('album', draft.album, false);
  if (problem) return { problem };
  const input: Input<'app.svc.scrobble.updateScrobble'> = { id: play.id };
  if (draft.artist.trim() !== play.artist) input.artist = draft.artist.trim();
  if (draft.title.trim() !== play.title) input.title = draft.title.trim();
  if (draft.album.trim() !== (play.album ?? '')) {
    // The API keeps a name it is not given: an album can be changed, not removed, by a correction.
    if (!draft.album.trim()) return { problem: 'A play keeps its album: type the right one instead of clearing it.' };
    input.album = draft.album.trim();
  }
  if (draft.time !== toLocalInput(play.createdAt)) {
    const at = new Date(draft.time);
    if (!draft.time || Number.isNaN(at.getTime())) return { problem: 'Give the date and time of the play.' };
    if (at.getTime() < 0) return { problem: 'A play cannot be before 1970.' };
    if (at.getTime() > now + MAX_FUTURE_MS) return { problem: 'A play cannot be more than a day in the future.' };
    input.listenedAt = at.toISOString();
  }
  if (Object.keys(input).length === 1) return { problem: 'Nothing changed: edit a field first.' };
  return { input };
}

/** The server's refusal of a correction, in words for the person who made it. */
export function correctionFailure(error: unknown): string {
  if (error instanceof XrpcFailure) {
    if (error.error === 'DuplicateScrobble') return 'You already have a play of that song at that time: change the time, or delete one of them.';
    if (error.error === 'NotFound') return 'This play is gone: it was deleted meanwhile, or the song no longer matches the catalog.';
    return sentence(error.message);
  }
  return error instanceof Error ? error.message : String(error);
}

/** A server message ("title is empty") as a sentence ("Title is empty."). */
export function sentence(message: string): string {
  const text = message.trim();
  if (!text) return text;
  return `${text[0]!.toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
}
