import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const BIN = path.resolve('bin/earshot.js');

export type CliEnv = Record<string, string>;

/** Runs the real `earshot` binary to completion with `input` on its stdin, in `cwd` if given. */
export function runCli(env: CliEnv, args: string[], input = '', cwd?: string) {
  return spawnSync(process.execPath, [BIN, ...args], { env, input, cwd, encoding: 'utf8' });
}

/** Starts `earshot serve` and resolves once both hosts are listening, with what it printed. */
export async function startServe(env: CliEnv): Promise<{ server: ChildProcess; output: string }> {
  const server = spawn(process.execPath, [BIN, 'serve', '--quiet'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    server.stdout!.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Scrobbler:')) resolve();
    });
    server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${output}`)));
  });
  return { server, output };
}

/** Stops a server started by startServe and waits until it has released the data directory. */
export async function stopServe(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}
