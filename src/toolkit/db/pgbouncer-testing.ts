import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Debian's PgBouncer (`apt-get install pgbouncer`), or PGBOUNCER_PATH. */
export const PGBOUNCER = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';

/**
 * Why PgBouncer tests cannot run here (false when they can). Under CI=true a missing PgBouncer
 * throws instead, so CI never passes by skipping them.
 */
export function pgbouncerMissing(): string | false {
  if (fs.existsSync(PGBOUNCER)) return false;
  if (process.env.CI === 'true') throw new Error(`${PGBOUNCER} is missing: CI runs the PostgreSQL tier through PgBouncer (.ci/run installs it)`);
  return `needs PgBouncer at ${PGBOUNCER} (apt-get install pgbouncer, or set PGBOUNCER_PATH)`;
}

/** PgBouncer's `pool_mode`: Earshot runs in the first two; statement mode is refused at start, in one line. */
export type PoolMode = 'transaction' | 'session' | 'statement';

export interface Pgbouncer {
  /** Its process, for measuring what it costs. */
  pid: number;
  /** `serverUrl` with its host and port replaced by the pooler's, and its database by `database`. */
  url(database: string): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Its own PgBouncer process on an ephemeral loopback port, in `mode`, in front of the PostgreSQL
 * server of `serverUrl` (trust authentication, as the test server has), with a generated ini and
 * userlist in a temporary directory. No `ignore_startup_parameters`: a parameter Earshot sent would
 * be refused, as a stock PgBouncer refuses it.
 */
export async function startPgbouncer(serverUrl: string, mode: PoolMode): Promise<Pgbouncer> {
  const server = new URL(serverUrl);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-pgbouncer-'));
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  fs.writeFileSync(path.join(dir, 'userlist.txt'), `"${user}" ""\n`);
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      `pool_mode = ${mode}`,
      'max_client_conn = 200',
      // In session mode a client holds its server connection until it closes: room for a process's 10 and a CLI's, as scaling.md advises.
      `default_pool_size = ${mode === 'session' ? 20 : 8}`,
      '',
    ].join('\n'),
  );
  // PgBouncer will not run as root; -u drops to the server's own user, who must read the directory.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) for (const file of ['', 'pgbouncer.ini', 'userlist.txt']) fs.chmodSync(path.join(dir, file), file ? 0o644 : 0o755);
  const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // A test process that ends before stop() (killed, or failing in a hook) must not leave the pooler running.
  const orphaned = () => child.kill();
  process.once('exit', orphaned);
  let log = '';
  child.stderr!.on('data', (chunk) => (log += chunk));
  for (let waited = 0; !(await accepting(port)); waited += 50) {
    if (child.exitCode !== null || waited > 10_000) {
      child.kill();
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`PgBouncer did not start: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    pid: child.pid!,
    url: (database) => Object.assign(new URL(serverUrl), { hostname: '127.0.0.1', port: String(port), pathname: `/${database}`, search: '' }).toString(),
    async stop() {
      process.off('exit', orphaned);
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
