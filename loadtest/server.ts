import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { generatedMusic } from '../bench/music.ts';

/** Audio files in the music folder the started server scans: two albums, the Subsonic stream scenario's songs. */
export const MUSIC_FILES = 24;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 15_000;
/** Lines of the server's output kept to show when something fails. */
const LOG_LINES = 40;

const EARSHOT_BIN = fileURLToPath(new URL('../bin/earshot.js', import.meta.url));

export interface StartedServer {
  apiUrl: string;
  scrobblerUrl: string;
  pid: number;
  storage: string;
  /** The server's last lines of output, for a failure's message. */
  recentOutput(): string;
  stop(): Promise<void>;
}

function writeMusic(dir: string): void {
  for (const file of generatedMusic(MUSIC_FILES)) {
    const target = path.join(dir, file.path);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.bytes);
  }
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Until `serve` has printed both hosts' URLs (they are on ports the system chose), or it ended. */
function hostUrls(child: ChildProcess, log: string[]): Promise<{ api: string; scrobbler: string }> {
  return new Promise((resolve, reject) => {
    const urls: { api?: string; scrobbler?: string } = {};
    const timer = setTimeout(() => reject(new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    const remember = (line: string) => {
      log.push(line);
      if (log.length > LOG_LINES) log.shift();
    };
    createInterface({ input: child.stderr! }).on('line', remember);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      remember(line);
      const match = /^\s*(API|Scrobbler):\s+(http:\/\/\S+)/.exec(line);
      if (match) urls[match[1] === 'API' ? 'api' : 'scrobbler'] = match[2]!;
      if (urls.api && urls.scrobbler) {
        clearTimeout(timer);
        resolve({ api: urls.api, scrobbler: urls.scrobbler });
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${signal ?? `status ${code}`}) before it was ready:\n${log.join('\n')}`));
    });
  });
}

export interface ServerOptions {
  /** Added to the environment (DATABASE_URL, EARSHOT_SECRET for processes that share a database). */
  env?: Record<string, string>;
  /** Scan a folder of generated music (the default); false starts without a library. */
  music?: boolean;
}

/**
 * `earshot serve` as a child process, as people run it: on loopback, on ports the system picks,
 * over PGlite in a temporary folder (or DATABASE_URL when set), scanning a temporary folder of
 * generated music. `stop` ends it as Ctrl-C would and removes the folder.
 */
export async function startServer(options: ServerOptions = {}): Promise<StartedServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-loadtest-'));
  const musicDir = path.join(dir, 'music');
  if (options.music !== false) writeMusic(musicDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    SCROBBLER_PORT: '0',
    EARSHOT_DATA_DIR: path.join(dir, 'data'),
    ...(options.music !== false && { EARSHOT_MUSIC_DIR: musicDir }),
    EARSHOT_SIGNUP: 'open',
    // The load comes from one address, far beyond any client's budget: the test measures the server.
    EARSHOT_RATE_LIMITS: 'off',
    ...options.env,
  };
  const child = spawn(process.execPath, [EARSHOT_BIN, 'serve', '--quiet'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited(child);
      clearTimeout(killer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const urls = await hostUrls(child, log);
    return {
      apiUrl: urls.api,
      scrobblerUrl: urls.scrobbler,
      pid: child.pid!,
      storage: env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite in a temporary folder',
      recentOutput: () => log.join('\n'),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
