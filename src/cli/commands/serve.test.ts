import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { seedEmbeddedDatabase, startServe } from '../testing.ts';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-serve-'));
after(() => fs.rmSync(home, { recursive: true, force: true }));

/** Resolves with the first bytes the socket receives (a response's status line arrives in one piece). */
const received = (socket: net.Socket) =>
  new Promise<string>((resolve, reject) => {
    socket.once('data', (chunk) => resolve(String(chunk)));
    socket.once('close', () => resolve(''));
    socket.once('error', reject);
  });

const SIGN_IN = JSON.stringify({ identifier: 'nobody', password: 'not the password' });

/** A served process (request log on) with a sign-in in flight: its headers and the start of its body are in, the rest is not. */
async function serveWithRequestInFlight(shutdownTimeoutMs: number) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    EARSHOT_DATA_DIR: path.join(home, `data-${shutdownTimeoutMs}`),
    PORT: '0',
    LOG_LEVEL: 'info',
    EARSHOT_SHUTDOWN_TIMEOUT_MS: String(shutdownTimeoutMs),
  };
  delete env.DATABASE_URL;
  // The shutdown is the point here, not the embedded database's first start.
  await seedEmbeddedDatabase(env.EARSHOT_DATA_DIR!);
  const { server, output, printed } = await startServe(env as Record<string, string>, false);
  const port = Number(/API: +http:\/\/127\.0\.0\.1:(\d+)/.exec(output)![1]);
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
  const socket = net.connect(port, '127.0.0.1');
  const answer = received(socket);
  socket.write(
    `POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${SIGN_IN.length}\r\n\r\n${SIGN_IN.slice(0, 10)}`,
  );
  await printed(/incoming request/);
  return { server, printed, exited, socket, answer };
}

test('SIGTERM lets a request in flight finish, then the process stops with status 0 and says so', async () => {
  // Far longer than the test needs: the request must finish by itself, not be cut.
  const { server, printed, exited, socket, answer } = await serveWithRequestInFlight(600_000);

  server.kill('SIGTERM');
  await printed(/shutting down \(SIGTERM\): draining 1 connections/);
  socket.write(SIGN_IN.slice(10));

  assert.match(await answer, /^HTTP\/1\.1 401 /);
  socket.destroy();
  assert.equal(await exited, 0);
  assert.match(await printed(/stopped/), /^stopped$/m);
});

test('a request that never finishes holds the shutdown only until EARSHOT_SHUTDOWN_TIMEOUT_MS, then its connection is closed', async () => {
  const { server, printed, exited, answer } = await serveWithRequestInFlight(50);
  server.kill('SIGTERM');
  assert.equal(await answer, '');
  assert.equal(await exited, 0);
  assert.match(await printed(/stopped/), /^stopped$/m);
});
