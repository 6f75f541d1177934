import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { startRefusingPostgres, type Refusal } from '../toolkit/db/refusing-postgres-testing.ts';
import { runCli, runCliWithFileSizeLimit, seedEmbeddedDatabase, type CliEnv } from './testing.ts';

/**
 * The real `earshot serve` failing to start: one line on stderr saying what to change, status 1, no stack trace.
 * Each case has its own data directory, so the cases run side by side.
 */
describe('start-up errors', { concurrency: true }, () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-startup-'));
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  const env = (overrides: CliEnv): CliEnv => {
    const base: Record<string, string | undefined> = { ...process.env, EARSHOT_DATA_DIR: fs.mkdtempSync(path.join(home, 'data-')), PORT: '0', ...overrides };
    if (!('DATABASE_URL' in overrides)) delete base.DATABASE_URL;
    return base as CliEnv;
  };

  async function failsWithOneLine(overrides: CliEnv, expected: RegExp, args = ['serve', '--quiet'], input = '', run = runCli): Promise<string> {
    const result = await run(env(overrides), args, input);
    assert.equal(result.status, 1, result.stderr);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 1, result.stderr);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
    assert.match(lines[0]!, expected);
    return lines[0]!;
  }

  test('a port in use names the variable that sets it', async () => {
    const occupier = net.createServer();
    await new Promise<void>((resolve) => occupier.listen(0, '127.0.0.1', resolve));
    const port = String((occupier.address() as net.AddressInfo).port);
    // The port is the point here, not the embedded database's first start.
    const dataDir = fs.mkdtempSync(path.join(home, 'port-in-use-'));
    await seedEmbeddedDatabase(dataDir);
    try {
      await failsWithOneLine(
        { EARSHOT_DATA_DIR: dataDir, PORT: port },
        new RegExp(`^earshot: port ${port} on 127\\.0\\.0\\.1 is already in use .*set PORT to a free port$`),
      );
      await failsWithOneLine({ EARSHOT_DATA_DIR: dataDir, PORT: '0', SCROBBLER_PORT: port }, /set SCROBBLER_PORT to a free port$/);
    } finally {
      await new Promise((resolve) => occupier.close(resolve));
    }
  });

  test('an unreachable PostgreSQL server is named by its URL, without the password', async () => {
    const line = await failsWithOneLine(
      { DATABASE_URL: 'postgres://u:secret@127.0.0.1:1/x' },
      /^earshot: cannot reach the PostgreSQL server at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x \(ECONNREFUSED\): start it, or correct DATABASE_URL$/,
    );
    assert.ok(!line.includes('secret'));
  });

  test('a malformed DATABASE_URL is one line, without the password', async () => {
    const line = await failsWithOneLine(
      { DATABASE_URL: 'postgres://u:hunter2@127.0.0.1:99999/x' },
      /^earshot: DATABASE_URL is not a valid URL: write it as postgres:\/\/user:password@host:5432\/database .*$/,
    );
    assert.ok(!line.includes('hunter2'));
  });

  test('a PostgreSQL server refusing the database names DATABASE_URL, without the password', {
    skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL not set',
  }, async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.password = 'hunter2-not-printed';
    url.pathname = '/earshot_no_such_database';
    const line = await failsWithOneLine(
      { DATABASE_URL: url.toString() },
      /^earshot: the PostgreSQL server at .* refused: database "earshot_no_such_database" does not exist \(3D000\): create the database \(createdb\), or correct the database name in DATABASE_URL$/,
    );
    assert.ok(!line.includes('hunter2'));
  });

  /** `earshot serve` against a loopback fake refusing every connection with `refusal`; the startup parameters it was sent. */
  async function refusedBy(refusal: Refusal, expected: RegExp, query = ''): Promise<Record<string, string>[]> {
    const fake = await startRefusingPostgres(refusal);
    try {
      const line = await failsWithOneLine({ DATABASE_URL: `${fake.url('earshot', 'hunter2-not-printed')}${query}` }, expected);
      assert.ok(!line.includes('hunter2'));
      return fake.startups;
    } finally {
      await fake.close();
    }
  }

  test('a pooler refusing a startup parameter names it and what to change; Earshot sends none of its own', async () => {
    // PgBouncer's own words, with ignore_startup_parameters left empty.
    const refusal = { code: '08P01', message: 'unsupported startup parameter: options' };
    const startups = await refusedBy(
      refusal,
      /^earshot: the PostgreSQL server at postgres:\/\/earshot:\*\*\*@127\.0\.0\.1:\d+\/earshot\?options=.* refused: unsupported startup parameter: options \(08P01\): remove that parameter from DATABASE_URL .*ignore_startup_parameters$/,
      '?options=-c%20jit%3Doff',
    );
    assert.ok(startups.length > 0 && startups.every((startup) => 'options' in startup));
    const own = await refusedBy(refusal, /refused: unsupported startup parameter: options \(08P01\)/);
    assert.deepEqual(
      own.flatMap(Object.keys).filter((name) => !['user', 'database', 'client_encoding'].includes(name)),
      [],
    );
  });

  test('a wrong password is one line naming DATABASE_URL, without the password', async () => {
    await refusedBy(
      { code: '28P01', message: 'password authentication failed for user "earshot"', password: true },
      /^earshot: the PostgreSQL server at .* refused: password authentication failed for user "earshot" \(28P01\): correct the password in DATABASE_URL .*$/,
    );
  });

  test('a server out of connections says to raise max_connections or pool', async () => {
    await refusedBy(
      { code: '53300', message: 'sorry, too many clients already' },
      /refused: sorry, too many clients already \(53300\): raise the server's max_connections, .*PgBouncer.*$/,
    );
  });

  test('a data directory that cannot be written names it and EARSHOT_DATA_DIR', async () => {
    // chmod stops no one running as root (as tests may), so root gets a path through a regular file instead.
    let dataDir: string;
    if (process.getuid?.() === 0) {
      const file = path.join(home, 'a-file');
      fs.writeFileSync(file, '');
      dataDir = path.join(file, 'data');
    } else {
      const readOnly = path.join(home, 'read-only');
      fs.mkdirSync(readOnly, { mode: 0o555 });
      dataDir = path.join(readOnly, 'data');
    }
    await failsWithOneLine(
      { EARSHOT_DATA_DIR: dataDir },
      new RegExp(`^earshot: cannot write the data directory ${dataDir} \\((ENOTDIR|EACCES) .*set EARSHOT_DATA_DIR to a directory it can write$`),
    );
  });

  test('an embedded database directory that cannot be made is one line, from serve and from a --direct command', async () => {
    // The database's directory taken by a file: PGlite's file system fails inside WebAssembly, with no message or stack of its own.
    const dataDir = fs.mkdtempSync(path.join(home, 'db-is-a-file-'));
    fs.writeFileSync(path.join(dataDir, 'db'), '');
    const expected = new RegExp(
      `^earshot: cannot write the data directory ${dataDir} \\(ENOTDIR on ${dataDir}\\): .*set EARSHOT_DATA_DIR to a directory it can write$`,
    );
    await failsWithOneLine({ EARSHOT_DATA_DIR: dataDir }, expected);
    await failsWithOneLine({ EARSHOT_DATA_DIR: dataDir }, expected, ['user', 'create', 'nobody', '--direct'], 'a long enough password\n');
  });

  test('a disk that fills up while the embedded database is made is one line, from serve and from a --direct command', async () => {
    // A file size limit fails the database's writes as a full disk would, where no small file system can be mounted.
    const limited = (environment: CliEnv, args: string[], input?: string) => runCliWithFileSizeLimit(environment, args, 1024, input);
    const expected =
      /^earshot: the embedded database in .* stopped as it started \(postgres aborted\), as it does when a write fails: free some space .*ulimit -f\), then start again$/;
    for (const args of [
      ['serve', '--quiet'],
      ['user', 'create', 'nobody', '--direct'],
    ]) {
      const dataDir = fs.mkdtempSync(path.join(home, 'small-disk-'));
      await failsWithOneLine({ EARSHOT_DATA_DIR: dataDir }, expected, args, 'a long enough password\n', limited);
    }
  });

  test('a server secret that cannot be read is one line naming it, from serve and from a --direct command', async () => {
    // A directory where the key file should be: unreadable even for root, as a file without read permission is for anyone else.
    const dataDir = fs.mkdtempSync(path.join(home, 'secret-unreadable-'));
    fs.mkdirSync(path.join(dataDir, 'secret.key'));
    const expected = new RegExp(
      `^earshot: cannot read the server secret ${dataDir}/secret\\.key \\(EISDIR\\): make it a file this user can read, or set EARSHOT_SECRET$`,
    );
    await failsWithOneLine({ EARSHOT_DATA_DIR: dataDir }, expected);
    await failsWithOneLine({ EARSHOT_DATA_DIR: dataDir }, expected, ['user', 'create', 'nobody', '--direct'], 'a long enough password\n');
  });

  test('a .env file in the working directory is read, and the real environment wins over it', async () => {
    const project = fs.mkdtempSync(path.join(home, 'project-'));
    fs.writeFileSync(path.join(project, '.env'), 'PORT=eighty\nLOG_LEVEL=loud\n');
    const run = (overrides: CliEnv) => {
      const base: Record<string, string | undefined> = env(overrides);
      if (!('PORT' in overrides)) delete base.PORT;
      return runCli(base as CliEnv, ['serve', '--quiet'], '', project);
    };
    assert.match((await run({})).stderr, /^earshot: PORT must be a port number \(0-65535\), got "eighty"$/m);
    assert.match((await run({ PORT: '0' })).stderr, /^earshot: LOG_LEVEL must be one of .*, got "loud"$/m);
  });
});
