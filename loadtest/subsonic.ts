import { setTimeout as sleep } from 'node:timers/promises';

const SCAN_TIMEOUT_MS = 120_000;
const POLL_MS = 200;
/** Songs the stream scenario takes turns with. */
const STREAM_SONGS = 50;

/** A Subsonic client's query string: OpenSubsonic's apiKey, JSON answers. */
export function subsonicQuery(apiKey: string, params: Record<string, string> = {}): string {
  return new URLSearchParams({ apiKey, c: 'earshot-loadtest', v: '1.16.1', f: 'json', ...params }).toString();
}

async function subsonic<T>(apiUrl: string, apiKey: string, method: string, params: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${apiUrl}/rest/${method}.view?${subsonicQuery(apiKey, params)}`);
  const answer = ((await response.json()) as { 'subsonic-response': { status: string; error?: { message: string } } & T })['subsonic-response'];
  if (answer.status !== 'ok') throw new Error(`Subsonic ${method} failed: ${answer.error?.message ?? JSON.stringify(answer)}`);
  return answer;
}

/** Until the server's first scan of its music folder has found `files` files and ended. */
export async function waitForScan(apiUrl: string, apiKey: string, files: number): Promise<void> {
  const deadline = Date.now() + SCAN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const { scanStatus } = await subsonic<{ scanStatus: { scanning: boolean; count: number; lastScan?: string } }>(apiUrl, apiKey, 'getScanStatus');
    if (!scanStatus.scanning && scanStatus.lastScan && scanStatus.count >= files) return;
    await sleep(POLL_MS);
  }
  throw new Error(`the server's scan of its music folder did not find ${files} files within ${SCAN_TIMEOUT_MS / 1000} s`);
}

/** Ids of songs in the library, as a Subsonic client finds them (search3 with an empty query lists all). */
export async function subsonicSongIds(apiUrl: string, apiKey: string): Promise<string[]> {
  const { searchResult3 } = await subsonic<{ searchResult3: { song?: { id: string }[] } }>(apiUrl, apiKey, 'search3', {
    query: '',
    songCount: String(STREAM_SONGS),
    artistCount: '0',
    albumCount: '0',
  });
  return (searchResult3.song ?? []).map((song) => song.id);
}
