/** Small pure helpers of the catalog pages: RSQL error positions, filters for links, ids from URIs. */

/**
 * The 1-based character the server's RSQL error points at: its message ends
 * "… at position N" or "… at position N; hint" (src/catalog/rsql/parser.ts). A problem
 * may name another position inside it ("to close the "(" at position 3, found …"), so
 * only the one the message ends on, or that the hint follows, counts.
 */
export function filterErrorPosition(message: string): number | null {
  const found = / at position (\d+)(?:;|$)/.exec(message);
  return found ? Number(found[1]) : null;
}

/** A quoted RSQL value matching text that contains `text` literally (its `*`, `\` and `"` escaped). */
export function containsValue(text: string): string {
  return `"*${text.replace(/[\\"*]/g, (char) => `\\${char}`)}*"`;
}

/** The id of `earshot:<kind>:<id>`, or null for another kind or no URI. */
export function catalogId(kind: 'song' | 'artist' | 'album', uri: string | undefined): string | null {
  const prefix = `earshot:${kind}:`;
  return uri?.startsWith(prefix) ? uri.slice(prefix.length) : null;
}

/** 369000 → "6:09"; an hour or more → "1:02:03". */
export function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString()} ${count === 1 ? one : many}`;
