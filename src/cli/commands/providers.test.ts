import assert from 'node:assert/strict';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { startFakeMusicstream } from '../../core/providers/musicstream/fake.ts';
import { freePort } from '../../toolkit/free-port-testing.ts';
import { runCli, seedEmbeddedDatabase, spawnCli, startServe, stopServe } from '../testing.ts';

/** `earshot provider connect` as a real process against a real `earshot serve` and the streaming service's fake. */
describe('earshot provider connect', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-provider-cli-'));
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  test('the consent page opens in any browser, whose callback connects nothing; the address pasted back into the command connects', {
    timeout: 120_000,
  }, async () => {
    const fake = await startFakeMusicstream({ account: 'cli-listener' });
    const port = String(await freePort());
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      EARSHOT_DATA_DIR: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      PORT: port,
      // Its own free port too: the default (PORT + 1) may be any other test's.
      SCROBBLER_PORT: String(await freePort()),
      EARSHOT_URL: `http://127.0.0.1:${port}`,
      MUSICSTREAM_CLIENT_ID: fake.config.clientId,
      MUSICSTREAM_CLIENT_SECRET: fake.config.clientSecret,
      MUSICSTREAM_AUTHORIZE_URL: fake.config.authorizeUrl,
      MUSICSTREAM_TOKEN_URL: fake.config.tokenUrl,
      MUSICSTREAM_API_URL: fake.config.apiUrl,
    };
    delete env.DATABASE_URL;
    // The command is the point here, not the embedded database's first start.
    await seedEmbeddedDatabase(env.EARSHOT_DATA_DIR!);
    // Whatever fails, the fake closes: an open listener would keep this file's process alive.
    let server: Awaited<ReturnType<typeof startServe>>['server'] | undefined;
    try {
      server = (await startServe(env)).server;
      assert.equal((await runCli(env, ['user', 'create', 'connector'], 'connector password\n')).status, 0);
      assert.equal((await runCli(env, ['login', 'connector'], 'connector password\n')).status, 0);
      const command = spawnCli(env, ['provider', 'connect', 'musicstream']);
      let stdout = '';
      let stderr = '';
      command.stdout!.on('data', (chunk) => (stdout += chunk));
      command.stderr!.on('data', (chunk) => (stderr += chunk));
      while (!/\n {2}\S+\n/.test(stdout) && command.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 20));
      const consentUrl = /Open this page in a browser and allow access \(before [^)]+\):\n {2}(\S+)\n/.exec(stdout)?.[1];
      assert.ok(consentUrl, stdout + stderr);

      // A browser of its own (no cookie): the fake consents at once and sends it to the callback.
      const consent = await fetch(consentUrl, { redirect: 'manual' });
      const callback = consent.headers.get('location')!;
      const arrived = await fetch(callback);
      assert.equal(arrived.status, 200);
      assert.match(((await arrived.json()) as { message: string }).message, /^Nothing is connected yet/);
      assert.deepEqual(JSON.parse((await runCli(env, ['provider', 'list', '--json'])).stdout).connections, []);

      command.stdin!.end(`${callback}\n`);
      const [code] = await once(command, 'exit');
      assert.equal(code, 0, stderr);
      assert.match(stdout, /Connected musicstream as cli-listener\. You can close this page\.\n$/);
      const [connection] = JSON.parse((await runCli(env, ['provider', 'list', '--json'])).stdout).connections;
      assert.deepEqual([connection.provider, connection.status, connection.accountName], ['musicstream', 'connected', 'cli-listener']);
    } finally {
      if (server) await stopServe(server);
      await fake.close();
    }
  });
});
