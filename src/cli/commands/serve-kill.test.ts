/**
 * Group commit answers a submit only once the transaction holding its listen has committed
 * (src/core/scrobbling/group-commit.ts). This kills a real `earshot serve` with SIGKILL while
 * many single ListenBrainz submits are in flight, starts it again on the same storage, and checks
 * that every listen that got its 200 is there, once. Listens that got no answer may or may not be.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliStorages, seedEmbeddedDatabase, startServe, stopServe, type Serving } from '../testing.ts';

const urlAfter = (output: string, label: string) => new RegExp(`${label}:\\s+(http://\\S+)`).exec(output)![1]!;

/** Listen `n`: one of 40 songs (some by artists the catalog has yet to create), a minute apart. */
const listen = (n: number) => ({
  listened_at: 1_700_000_000 + n * 60,
  track_metadata: { artist_name: `Killed Artist ${n % 9}`, track_name: `Killed Song ${n % 40}`, release_name: `Killed Album ${n % 5}` },
});

const CLIENTS = 32;

for (const storage of cliStorages('kill')) {
  describe(`earshot serve killed mid-stream of single submits [${storage.name}]`, () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-cli-kill-'));
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      EARSHOT_DATA_DIR: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      EARSHOT_SECRET: 'one secret for both lives of this server',
      PORT: '0',
      ...storage.env,
    };
    if (!storage.env.DATABASE_URL) delete env.DATABASE_URL;
    let serving: Serving | undefined;

    before(async () => {
      if (!storage.env.DATABASE_URL) await seedEmbeddedDatabase(env.EARSHOT_DATA_DIR!);
    });

    after(async () => {
      if (serving) await stopServe(serving.server);
      await storage.drop();
      fs.rmSync(home, { recursive: true, force: true });
    });

    it('keeps every acknowledged listen exactly once after kill -9 and a restart', async (t) => {
      serving = await startServe(env);
      const api = urlAfter(serving.output, 'API');
      const signup = await fetch(`${api}/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ handle: 'killed', password: 'killed password 1' }),
      });
      assert.equal(signup.status, 201);
      const { token } = (await signup.json()) as { token: string };
      const created = await fetch(`${api}/xrpc/app.svc.apikey.createApikey`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ name: 'killed' }),
      });
      assert.equal(created.status, 200);
      const { key } = (await created.json()) as { key: string };
      const headers = { 'content-type': 'application/json', authorization: `Token ${key}` };

      const submit = (scrobbler: string, listenType: 'single' | 'import', payload: unknown[]) =>
        fetch(`${scrobbler}/1/submit-listens`, { method: 'POST', headers, body: JSON.stringify({ listen_type: listenType, payload }) });

      // 32 clients, each sending its next single listen as soon as the last is answered; the server
      // is killed once some hundreds are acknowledged, while the rest are in flight.
      const scrobbler = urlAfter(serving.output, 'Scrobbler');
      const server = serving.server;
      const acknowledged: number[] = [];
      let next = 0;
      let killed = false;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      const client = async () => {
        while (!killed) {
          const n = next++;
          try {
            const answer = await submit(scrobbler, 'single', [listen(n)]);
            const body = (await answer.json()) as { payload: { stored: number } };
            // The answer came before the kill took effect: the listen must have been durable.
            if (answer.status === 200) {
              assert.equal(body.payload.stored, 1, JSON.stringify(body));
              acknowledged.push(n);
            }
          } catch {
            return; // the connection died with the server: this listen has no answer
          }
          if (!killed && acknowledged.length >= 300) {
            killed = true;
            server.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, client));
      await exited;
      serving = undefined;
      assert.ok(acknowledged.length >= 300);
      // Killed mid-stream: requests were in flight, unanswered.
      assert.ok(next > acknowledged.length, `${next} sent, ${acknowledged.length} acknowledged`);

      serving = await startServe(env);
      const restarted = urlAfter(serving.output, 'Scrobbler');
      // Sent again, every acknowledged listen is a duplicate: each is stored, and (scrobbles_once) once.
      const again = await submit(restarted, 'import', acknowledged.map(listen));
      assert.equal(again.status, 200);
      const { payload } = (await again.json()) as { payload: { duplicate: number; stored: number; ignored: number } };
      assert.deepEqual(payload.stored, 0, 'an acknowledged listen was lost');
      assert.equal(payload.duplicate, acknowledged.length);
      const count = await fetch(`${restarted}/1/user/killed/listen-count`);
      const stored = ((await count.json()) as { payload: { count: number } }).payload.count;
      const summary = `${next} sent, ${acknowledged.length} acknowledged, ${stored} stored`;
      assert.ok(stored >= acknowledged.length && stored <= next, summary);
      t.diagnostic(summary);
    });
  });
}
