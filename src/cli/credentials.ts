import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What `earshot login` remembers between commands. */
export interface StoredCredentials {
  server: string;
  handle: string;
  did: string;
  token: string;
}

export function credentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'earshot', 'credentials.json');
}

export function readCredentials(env: NodeJS.ProcessEnv = process.env): StoredCredentials | null {
  try {
    return JSON.parse(fs.readFileSync(credentialsFile(env), 'utf8')) as StoredCredentials;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Written readable by the owner only: the file holds a live credential. */
export function writeCredentials(credentials: StoredCredentials, env: NodeJS.ProcessEnv = process.env): string {
  const file = credentialsFile(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return file;
}

export function removeCredentials(env: NodeJS.ProcessEnv = process.env): boolean {
  const file = credentialsFile(env);
  const existed = fs.existsSync(file);
  fs.rmSync(file, { force: true });
  return existed;
}
