import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { requestJson } from '../src/cli/api-client.ts';
import { runImport, type ImportSink } from '../src/core/scrobbling/imports/index.ts';
import { subsonicSongIds, waitForScan } from './subsonic.ts';

/** The imported history: a few thousand plays over a few hundred songs, all in one calendar year. */
const PLAYS = 3000;
const ARTISTS = 30;
const SONGS_PER_ARTIST = 10;
const TITLE_WORDS = ['Harbour', 'Night', 'Signal', 'Orbit', 'Echo', 'Lantern', 'River', 'Static', 'Bloom', 'Comet'];

export interface Song {
  artist: string;
  title: string;
}

/** What the scenarios need of the seeded server. */
export interface SeededServer {
  apiUrl: string;
  scrobblerUrl: string;
  did: string;
  handle: string;
  /** Plays the account had before the first scenario. */
  plays: number;
  /** An API key: ListenBrainz's `Token` and Subsonic's `apiKey`. */
  apiKey: string;
  /** The calendar year the imported plays are in, for getWrapped. */
  year: number;
  /** The imported songs, which the submit scenario listens to again. */
  songs: Song[];
  /** Subsonic ids of songs with a file, for the stream scenario; empty when the server's library has none. */
  streamIds: string[];
}

export interface SeedOptions {
  apiUrl: string;
  scrobblerUrl: string;
  /** Audio files the server's music folder holds, to wait for its first scan; absent: nothing is waited for. */
  musicFiles: number | undefined;
}

function seededSongs(): Song[] {
  return Array.from({ length: ARTISTS * SONGS_PER_ARTIST }, (_, i) => ({
    artist: `Loadtest Artist ${Math.floor(i / SONGS_PER_ARTIST)}`,
    title: `${TITLE_WORDS[i % TITLE_WORDS.length]} ${i}`,
  }));
}

/** A ListenBrainz export (one JSON listen a line) of PLAYS plays spread evenly over `year`. */
function listenBrainzExport(songs: Song[], year: number): Buffer {
  const start = Date.UTC(year, 0, 1) / 1000;
  const step = Math.floor((Date.UTC(year + 1, 0, 1) / 1000 - start) / PLAYS);
  const lines = Array.from({ length: PLAYS }, (_, i) => {
    const song = songs[(i * 7) % songs.length]!;
    return JSON.stringify({ listened_at: start + i * step, track_metadata: { artist_name: song.artist, track_name: song.title } });
  });
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** Imports the history as `earshot import` would, through importListens. */
async function importHistory(apiUrl: string, token: string, songs: Song[], year: number): Promise<void> {
  const sink: ImportSink = {
    status: (fingerprint) => requestJson(apiUrl, 'GET', `/xrpc/app.svc.scrobble.getImport?fingerprint=${fingerprint}`, undefined, token),
    send: (batch) => requestJson(apiUrl, 'POST', '/xrpc/app.svc.scrobble.importListens', batch, token),
  };
  const bytes = listenBrainzExport(songs, year);
  const source = { label: 'listens.jsonl', bytes: bytes.length, open: () => Readable.from([bytes]) };
  const summary = await runImport({ source, format: 'listenbrainz', sink });
  if (summary.stored !== PLAYS) throw new Error(`the import stored ${summary.stored} of ${PLAYS} plays (${JSON.stringify(summary.ignoredExamples)})`);
}

/**
 * A fresh account seeded through the public APIs only, so the same steps work on a server the
 * load test did not start: sign-up, an API key, a year of plays imported from a ListenBrainz
 * export, and the library's songs as a Subsonic client finds them.
 */
export async function seedServer(options: SeedOptions): Promise<SeededServer> {
  const { apiUrl, scrobblerUrl } = options;
  const handle = `loadtest${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const account = await requestJson<{ did: string; token: string }>(apiUrl, 'POST', '/auth/signup', { handle, password: randomBytes(16).toString('hex') });
  const { key } = await requestJson<{ key: string }>(apiUrl, 'POST', '/xrpc/app.svc.apikey.createApikey', { name: 'loadtest' }, account.token);
  const songs = seededSongs();
  const year = new Date().getUTCFullYear() - 1;
  await importHistory(apiUrl, account.token, songs, year);
  if (options.musicFiles !== undefined) await waitForScan(apiUrl, key, options.musicFiles);
  const streamIds = await subsonicSongIds(apiUrl, key);
  return { apiUrl, scrobblerUrl, did: account.did, handle, plays: PLAYS, apiKey: key, year, songs, streamIds };
}
