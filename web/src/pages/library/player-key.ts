/**
 * The web player's credential for the Subsonic API. An <audio> element cannot send an
 * Authorization header, so /rest/stream is asked with OpenSubsonic's `apiKey=` parameter: one API
 * key per user, kept in this browser (the sign-in token never goes into a URL).
 */

const SUBSONIC = { v: '1.16.1', c: 'earshot-web' };
const storageName = (did: string) => `earshot.webPlayerKey.${did}`;

export function storedKey(did: string): string | null {
  try {
    return localStorage.getItem(storageName(did));
  } catch {
    return null;
  }
}

export function storeKey(did: string, key: string | null): void {
  if (key) localStorage.setItem(storageName(did), key);
  else localStorage.removeItem(storageName(did));
}

/** A /rest URL: the Subsonic API's own paths, not an XRPC operation. */
const restUrl = (method: string, key: string, params: Record<string, string>) =>
  `/rest/${method}?${new URLSearchParams({ ...params, apiKey: key, ...SUBSONIC })}`;

export const streamUrl = (key: string, songId: string) => restUrl('stream', key, { id: songId });
export const coverUrl = (key: string, coverId: string) => restUrl('getCoverArt', key, { id: coverId });

/**
 * Whether the key signs `handle` in at /rest (getUser answers only for the key's own user):
 * null when it does, else what is wrong, in words; throws when the server cannot be reached.
 */
export async function keyProblem(key: string, handle: string): Promise<string | null> {
  let document: { 'subsonic-response'?: { status?: string; error?: { code?: number; message?: string } } };
  try {
    document = (await (await fetch(restUrl('getUser', key, { username: handle, f: 'json' }))).json()) as typeof document;
  } catch {
    // Unreachable says nothing about the key: the caller must not forget it for this.
    throw new Error('The music server could not be reached; check your connection and try again.');
  }
  const answer = document['subsonic-response'];
  if (answer?.status === 'ok') return null;
  const code = answer?.error?.code;
  if (code === 43 || code === 44 || code === 40) return 'That is not one of your API keys (it may have been removed).';
  if (code === 50) return 'That API key belongs to another account.';
  return answer?.error?.message ?? 'The music server did not accept the key.';
}
