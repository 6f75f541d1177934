import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../toolkit/free-port-testing.ts';
import { runCli, seedEmbeddedDatabase, startServe, stopServe } from './testing.ts';

/** The real CLI against a real `earshot serve`, each with its own data and config directories. */
describe('earshot CLI end to end', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-cli-'));
  const env = {
    ...process.env,
    EARSHOT_DATA_DIR: path.join(home, 'data'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    PORT: '',
    EARSHOT_URL: '',
  };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  let server: ChildProcess;

  const earshot = (args: string[], input = '') => runCli(env, args, input);

  before(async () => {
    env.PORT = String(await freePort());
    env.EARSHOT_URL = `http://127.0.0.1:${env.PORT}`;
    // The commands are the point here, not the embedded database's first start.
    await seedEmbeddedDatabase(env.EARSHOT_DATA_DIR);
    const started = await startServe(env);
    server = started.server;
    const { output } = started;
    assert.match(output, new RegExp(`API: +http://127\\.0\\.0\\.1:${env.PORT}`));
  });

  after(async () => {
    await stopServe(server);
    fs.rmSync(home, { recursive: true, force: true });
  });

  test('user create, login, tokens and keys', async () => {
    const created = await earshot(['user', 'create', 'cliuser'], 'cli password 1\n');
    assert.equal(created.status, 0, created.stderr);
    assert.match(created.stdout, /Created cliuser \(did:plc:/);

    const badLogin = await earshot(['login', 'cliuser'], 'wrong password\n');
    assert.equal(badLogin.status, 1);
    assert.match(badLogin.stderr, /AuthenticationFailed/);

    const login = await earshot(['login', 'cliuser'], 'cli password 1\n');
    assert.equal(login.status, 0, login.stderr);
    const stored = path.join(env.XDG_CONFIG_HOME, 'earshot', 'credentials.json');
    assert.equal(fs.statSync(stored).mode & 0o777, 0o600);

    const token = await earshot(['token', 'create', 'laptop']);
    assert.equal(token.status, 0, token.stderr);
    const secret = token.stdout.trim().split('\n').at(-1)!;
    const listed = await earshot(['token', 'list']);
    assert.match(listed.stdout, new RegExp(`laptop +…${secret.slice(-4)}`));
    assert.ok(!listed.stdout.includes(secret));
    const id = /\(([0-9a-f-]{36})\)/.exec(token.stdout)![1]!;
    assert.equal((await earshot(['token', 'revoke', id])).status, 0);
    assert.match((await earshot(['token', 'list'])).stdout, /\(none\)/);

    const key = await earshot(['key', 'create', 'Phone', '--description', 'pano']);
    assert.equal(key.status, 0, key.stderr);
    assert.match(key.stdout, /key: +[0-9a-f]{32}/);
    assert.match((await earshot(['key', 'list'])).stdout, /Phone +pano/);
    const keys = JSON.parse((await earshot(['key', 'list', '--json'])).stdout) as { name: string; description: string }[];
    assert.deepEqual(
      keys.map(({ name, description }) => ({ name, description })),
      [{ name: 'Phone', description: 'pano' }],
    );
    assert.deepEqual(JSON.parse((await earshot(['token', 'list', '--json'])).stdout), []);
    assert.deepEqual(JSON.parse((await earshot(['provider', 'list', '--json'])).stdout), { available: [], connections: [] });
  });

  test('logout ends the session on the server, not only on this machine', async () => {
    assert.equal((await earshot(['user', 'create', 'clileaver'], 'leaver password\n')).status, 0);
    assert.equal((await earshot(['login', 'clileaver'], 'leaver password\n')).status, 0);
    const { token } = JSON.parse(fs.readFileSync(path.join(env.XDG_CONFIG_HOME, 'earshot', 'credentials.json'), 'utf8'));
    const sessions = async () => fetch(`${env.EARSHOT_URL}/auth/sessions`, { headers: { authorization: `Bearer ${token}` } });
    const listed = (await (await sessions()).json()) as { sessions: { userAgent: string }[] };
    assert.match(listed.sessions[0]!.userAgent, /^earshot CLI on /);

    const out = await earshot(['logout']);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /the session is ended there and the token forgotten/);
    assert.equal((await sessions()).status, 401);
    assert.match((await earshot(['logout'])).stdout, /Not logged in/);
  });

  test('usage errors exit 2; the embedded database refuses a second process', async () => {
    assert.equal((await earshot(['token', 'create'])).status, 2);
    assert.equal((await earshot(['nonsense'])).status, 2);
    const direct = await earshot(['user', 'create', 'other', '--direct'], 'long password\n');
    assert.equal(direct.status, 1);
    assert.match(direct.stderr, /in use by process/);
  });
});

test('help and version answer without a server: every command, a group of commands, one command', async () => {
  const env = { ...process.env } as Record<string, string>;
  const version = await runCli(env, ['--version']);
  assert.equal(version.stdout.trim(), JSON.parse(fs.readFileSync('package.json', 'utf8')).version);
  const help = await runCli(env, ['--help']);
  assert.equal(help.status, 0);
  for (const command of ['serve', 'user create', 'key list', 'import', 'stats rebuild']) assert.match(help.stdout, new RegExp(`^  ${command}\\b`, 'm'));

  for (const args of [['key'], ['key', '--help']]) {
    const group = await runCli(env, args);
    assert.equal(group.status, 0, group.stderr);
    assert.deepEqual(group.stdout.match(/^ {2}\S+ \S+/gm), ['  key list', '  key create', '  key remove']);
  }
  const one = await runCli(env, ['token', 'create', '--help']);
  assert.equal(one.status, 0);
  assert.equal(one.stdout, 'usage: earshot token create <name> [--server URL]\n\nCreate a personal access token (the secret is shown once)\n');
  const unknown = await runCli(env, ['key', 'rotate']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /^unknown command: key rotate\n\nusage: earshot key <command>/);
});
