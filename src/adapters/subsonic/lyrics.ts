/**
 * OpenSubsonic's structuredLyrics from the lyrics text a file's tags hold. Taggers often embed LRC
 * (`[01:02.50]a line`, several stamps on a line for a repeated chorus, `[ar:…]` or `[offset:+250]`
 * tags of its own): text that is LRC throughout becomes synced lines, anything else unsynced lines.
 */

export interface LyricsLine {
  /** Milliseconds from the start of the song, for synced lyrics. */
  start?: number;
  value: string;
}

export interface StructuredLyrics {
  synced: boolean;
  /** LRC's own `[offset:]`, in milliseconds: positive shows the lines sooner, as OpenSubsonic's offset does. */
  offset?: number;
  line: LyricsLine[];
}

/** `[mm:ss]`, `[mm:ss.x]` … `[mm:ss.xxx]`; a line may start with several. */
const STAMP = /^\[(\d{1,3}):([0-5]?\d)(?:[.:](\d{1,3}))?\]/;
/** An LRC tag line such as `[ar:Artist]` or `[offset:+250]`. */
const TAG = /^\[([a-z#]+):([^\]]*)\]$/i;

const milliseconds = (minutes: string, seconds: string, fraction = '') =>
  (Number(minutes) * 60 + Number(seconds)) * 1000 + (fraction ? Math.round(Number(`0.${fraction}`) * 1000) : 0);

/** The synced lines of LRC text, or null when any line is neither stamped, a tag, nor blank. */
function syncedLyrics(lines: readonly string[]): StructuredLyrics | null {
  const timed: Required<LyricsLine>[] = [];
  let offset: number | undefined;
  for (const raw of lines) {
    let rest = raw.trim();
    const starts: number[] = [];
    for (let stamp = STAMP.exec(rest); stamp; stamp = STAMP.exec(rest)) {
      starts.push(milliseconds(stamp[1]!, stamp[2]!, stamp[3]));
      rest = rest.slice(stamp[0].length);
    }
    if (starts.length > 0) {
      for (const start of starts) timed.push({ start, value: rest.trim() });
      continue;
    }
    const tag = TAG.exec(rest);
    if (tag && tag[1]!.toLowerCase() === 'offset' && /^[+-]?\d+$/.test(tag[2]!.trim())) offset = Number(tag[2]!.trim());
    else if (!tag && rest !== '') return null;
  }
  if (timed.length === 0) return null;
  // A stable sort keeps lines with the same stamp in the order written.
  return { synced: true, ...(offset ? { offset } : {}), line: timed.sort((a, b) => a.start - b.start) };
}

export function structuredLyrics(text: string): StructuredLyrics {
  const lines = text.split(/\r?\n/);
  return syncedLyrics(lines) ?? { synced: false, line: lines.map((value) => ({ value })) };
}
