import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { before } from 'node:test';
import pg from 'pg';
import { migratedTemplateFile } from '../toolkit/db/template-testing.ts';

// The real bin runs the compiled dist/; scripts/run-tests.mjs rebuilds it first when a source is newer,
// so these tests always exercise the sources as they are (run test files through that script).
const BIN = path.resolve('bin/earshot.js');
/**
 * The V8 flags scripts/run-tests.mjs gives test processes, passed on to the CLI processes they start:
 * those live seconds too, so optimizing PGlite's WebAssembly costs them more than it gains.
 */
const NODE_FLAGS = process.execArgv.filter((flag) => flag === '--liftoff-only');

export type CliEnv = Record<string, string>;

/** A test's server never reaches MusicBrainz: enrichment is off unless the test's environment turns it on. */
const offline = (env: CliEnv): CliEnv => ({ EARSHOT_ENRICH: 'off', ...env });

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command` to completion with `input` on its stdin, without blocking: independent runs overlap. */
function runToCompletion(command: string, args: string[], env: CliEnv, input: string, cwd?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let [stdout, stderr] = ['', ''];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // A process that exits without reading its stdin closes the pipe under the write.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs the real `earshot` binary to completion with `input` on its stdin, in `cwd` (where a .env is looked for). */
export function runCli(env: CliEnv, args: string[], input = '', cwd?: string): Promise<CliResult> {
  return runToCompletion(process.execPath, [...NODE_FLAGS, BIN, ...args], offline(env), input, cwd);
}

/** Starts the real `earshot` binary, to talk to it while it runs. */
export function spawnCli(env: CliEnv, args: string[]): ChildProcess {
  return spawn(process.execPath, [...NODE_FLAGS, BIN, ...args], { env: offline(env), stdio: ['pipe', 'pipe', 'pipe'] });
}

/**
 * runCli with RLIMIT_FSIZE at `blocks` (sh's unit): a file grown past it fails with EFBIG (Node
 * ignores SIGXFSZ), as a write to a full disk fails, even for root.
 */
export function runCliWithFileSizeLimit(env: CliEnv, args: string[], blocks: number, input = ''): Promise<CliResult> {
  return runToCompletion('sh', ['-c', `ulimit -f ${blocks} && exec "$@"`, 'sh', process.execPath, ...NODE_FLAGS, BIN, ...args], offline(env), input);
}

/**
 * Gives `dataDir` the embedded database a first start would make, already migrated, from the tests'
 * template: initdb and the migrations cost each real process seconds, and only the tests of that first
 * start need to watch it happen (they leave their data directory empty).
 */
export async function seedEmbeddedDatabase(dataDir: string): Promise<void> {
  const target = path.join(dataDir, 'db');
  fs.mkdirSync(target, { recursive: true });
  // The template is a tar of the data directory's contents (paths from its root).
  const tar = spawnSync('tar', ['-xf', await migratedTemplateFile(), '-C', target], { encoding: 'utf8' });
  if (tar.status !== 0) throw new Error(`cannot unpack the database template into ${target}: ${tar.stderr}`);
}

export interface Serving {
  server: ChildProcess;
  /** What it printed up to the moment both hosts listened. */
  output: string;
  /** Resolves with everything printed so far once it matches `pattern`. */
  printed(pattern: RegExp): Promise<string>;
}

/** Starts `earshot serve` (quiet: no request log) and resolves once both hosts are listening. */
export async function startServe(env: CliEnv, quiet = true): Promise<Serving> {
  const server = spawn(process.execPath, [...NODE_FLAGS, BIN, 'serve', ...(quiet ? ['--quiet'] : [])], {
    env: offline(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  server.stderr!.on('data', (chunk) => (errors += chunk));
  server.stdout!.on('data', (chunk) => (output += chunk));
  const printed = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output)) return;
        server.stdout!.off('data', check);
        server.off('exit', exited);
        resolve(output);
      };
      const exited = (code: number | null) => reject(new Error(`serve exited ${code} before printing ${pattern}: ${output}${errors}`));
      server.stdout!.on('data', check);
      server.once('exit', exited);
      check();
    });
  return { server, output: await printed(/Scrobbler:/), printed };
}

/** Stops a server started by startServe and waits until it has released the data directory. */
export async function stopServe(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/** Where a test's `earshot` processes keep their data: the embedded database, or a schema of a PostgreSQL server. */
export interface CliStorage {
  name: 'pglite' | 'postgres';
  /** Added to the processes' environment (DATABASE_URL for the server; nothing for the embedded database). */
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The embedded database (a data directory) always; a fresh schema of the TEST_DATABASE_URL server too
 * when it is set, made before the file's tests (a top-level `before`) and named after `label`.
 */
export function cliStorages(label: string): CliStorage[] {
  const embedded: CliStorage = { name: 'pglite', env: {}, drop: async () => {} };
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return [embedded];
  const schema = `earshot_cli_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const server: CliStorage = {
    name: 'postgres',
    env: { DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema},public`)}` },
    drop: () => adminQuery(url, `drop schema if exists ${schema} cascade`),
  };
  before(() => adminQuery(url, `create schema ${schema}`));
  return [embedded, server];
}
