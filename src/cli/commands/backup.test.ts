import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, describe, test } from 'node:test';
import { createHash } from 'node:crypto';
import { createApiKey } from '../../core/auth/api-keys.ts';
import { authenticateApiKey, findUserByActor } from '../../core/auth/index.ts';
import { likeSong } from '../../core/catalog/likes.ts';
import { loadConfig } from '../../toolkit/config.ts';
import type { AppContext } from '../../core/context.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { createPlaylist } from '../../core/library/playlists.ts';
import { ingestListens } from '../../core/scrobbling/index.ts';
import { openAppContext } from '../../app/server.ts';
import { runCli, seedEmbeddedDatabase, startServe, stopServe } from '../testing.ts';

/** Works on the embedded database of a data directory in this process (no server may have it open). */
async function onDataDir<T>(env: Record<string, string>, work: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = await openAppContext(loadConfig(env));
  try {
    return await work(ctx);
  } finally {
    await ctx.close();
  }
}

/** A user's plays (times with milliseconds), a playlist (a song twice, out of order) and a like. */
async function userData(ctx: AppContext, handle: string): Promise<void> {
  const user = (await findUserByActor(ctx.db, handle))!;
  const listens = Array.from({ length: 250 }, (_, i) => ({
    artist: `Backup ${handle}`,
    title: `Song ${i % 9}`,
    album: 'Safe',
    listenedAt: new Date(Date.UTC(2024, 0, 1) + i * 3_601_234),
  }));
  await ingestListens(ctx, user.id, listens, 'api');
  const songs = await ctx.db.selectFrom('tracks').select('id').where('artist', '=', `Backup ${handle}`).orderBy('title').execute();
  await createPlaylist(ctx.db, user.id, `${handle}'s mix`, [songs[2]!.id, songs[0]!.id, songs[2]!.id]);
  await likeSong(ctx.db, user.id, songs[1]!.id);
}

/** Everything the round trip must keep, with the plays as a count and a checksum of user, exact time and song. */
async function snapshot(db: Database) {
  const plays = await db
    .selectFrom('scrobbles as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('tracks as t', 't.id', 's.track_id')
    .select(['u.handle', 's.listened_at', 's.track_id', 't.artist', 't.title'])
    .orderBy('u.handle')
    .orderBy('s.listened_at')
    .orderBy('s.track_id')
    .execute();
  const checksum = createHash('sha256');
  for (const play of plays) checksum.update(JSON.stringify([play.handle, play.listened_at.toISOString(), play.track_id, play.artist, play.title]));
  const playlists = await db
    .selectFrom('playlists as p')
    .innerJoin('playlist_items as i', 'i.playlist_id', 'p.id')
    .select(['p.id', 'p.name', 'p.user_id', 'i.position', 'i.track_id'])
    .orderBy('p.id')
    .orderBy('i.position')
    .execute();
  const likes = await db.selectFrom('stars').select(['user_id', 'subject_kind', 'subject_id', 'created_at']).orderBy('user_id').orderBy('subject_id').execute();
  const keys = await db.selectFrom('api_keys').select(['id', 'user_id', 'name', 'key_hash', 'created_at']).orderBy('id').execute();
  return { plays: plays.length, checksum: checksum.digest('hex'), playlists, likes, keys };
}

/** `earshot backup` / `earshot restore` as real processes on embedded databases: the round trip and every refusal. */
describe('earshot backup and restore', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-backup-cli-'));
  const env = (dir: string): Record<string, string> => {
    const vars: Record<string, string> = { ...(process.env as Record<string, string>), EARSHOT_DATA_DIR: path.join(home, dir), PORT: '0' };
    delete vars.DATABASE_URL;
    return vars;
  };
  const backupFile = path.join(home, 'earshot.tar.gz');
  after(() => fs.rmSync(home, { recursive: true, force: true }));

  test('a backup restores into another data directory with every account, play, playlist, like and API key; an existing database is moved aside only when asked', async () => {
    // The backup is the point here, not the embedded database's first start.
    await seedEmbeddedDatabase(env('first').EARSHOT_DATA_DIR!);
    for (const handle of ['keeper', 'second']) {
      const created = await runCli(env('first'), ['user', 'create', handle, '--direct'], 'a long enough password\n');
      assert.equal(created.status, 0, created.stderr);
    }
    const { before, key } = await onDataDir(env('first'), async (ctx) => {
      for (const handle of ['keeper', 'second']) await userData(ctx, handle);
      const keeper = (await findUserByActor(ctx.db, 'keeper'))!;
      const { key } = await createApiKey(ctx.db, ctx.keys, { userId: keeper.id }, { name: 'scrobbler', description: 'kept by the backup' });
      return { before: await snapshot(ctx.db), key };
    });
    assert.equal(before.plays, 500);
    assert.equal(before.playlists.length, 6);
    assert.equal(before.likes.length, 2);
    assert.equal(before.keys.length, 1);

    const backup = await runCli(env('first'), ['backup', '--out', backupFile]);
    assert.equal(backup.status, 0, backup.stderr);
    assert.match(backup.stdout, /Backed up .*first\/db to .*earshot\.tar\.gz \([\d.]+ MiB\)/);
    assert.ok(!fs.existsSync(`${backupFile}.partial`));

    const restored = await runCli(env('second'), ['restore', backupFile]);
    assert.equal(restored.status, 0, restored.stderr);
    assert.match(restored.stdout, /Restored .*second\/db from .*\(2 users\)/);
    await onDataDir(env('second'), async (ctx) => {
      assert.deepEqual(await snapshot(ctx.db), before);
      assert.equal((await authenticateApiKey(ctx.db, key))?.handle, 'keeper', 'the API key still signs its owner in');
    });
    // The restored database serves: the accounts sign in.
    const login = await runCli(env('second'), ['user', 'create', 'keeper', '--direct'], 'a long enough password\n');
    assert.notEqual(login.status, 0, 'the handle is taken in the restored database');
    assert.match(login.stderr, /taken|exists/i);

    const again = await runCli(env('second'), ['restore', backupFile]);
    assert.equal(again.status, 1);
    assert.match(again.stderr, /already holds a database; add --replace/);
    const replaced = await runCli(env('second'), ['restore', backupFile, '--replace']);
    assert.equal(replaced.status, 0, replaced.stderr);
    assert.match(replaced.stdout, /the database that was there is now .*db\.before-restore-/);
  });

  test('refusals: a running server, a target that is not a regular file, a file that is not a backup, a broken backup, nothing to back up, PostgreSQL', async () => {
    const { server } = await startServe(env('first'));
    try {
      const busy = await runCli(env('first'), ['backup', '--out', path.join(home, 'busy.tar.gz')]);
      assert.equal(busy.status, 1);
      assert.match(busy.stderr, /in use by process \d+; stop it first/);
    } finally {
      await stopServe(server);
    }
    fs.writeFileSync(path.join(home, 'notes.txt'), 'not a backup');
    const notBackup = await runCli(env('third'), ['restore', path.join(home, 'notes.txt')]);
    assert.equal(notBackup.status, 1);
    assert.match(notBackup.stderr, /is not an Earshot backup/);
    fs.writeFileSync(path.join(home, 'broken.tar.gz'), gzipSync(Buffer.from('not a tar archive at all')));
    const broken = await runCli(env('third'), ['restore', path.join(home, 'broken.tar.gz')]);
    assert.equal(broken.status, 1);
    assert.match(broken.stderr, /could not be restored/);
    assert.ok(!fs.existsSync(path.join(home, 'third', 'db', 'PG_VERSION')), 'nothing half-restored is left');

    // Only a new or regular file is replaced: renaming over a device or a directory would destroy it.
    const notAFile = await runCli(env('first'), ['backup', '--out', home]);
    assert.equal(notAFile.status, 1);
    assert.match(notAFile.stderr, /exists and is not a regular file/);
    assert.ok(fs.statSync(home).isDirectory());

    const nothing = await runCli(env('fourth'), ['backup']);
    assert.equal(nothing.status, 1);
    assert.match(nothing.stderr, /there is no database in .*fourth\/db to back up/);
    const postgres = await runCli({ ...env('first'), DATABASE_URL: 'postgres://earshot@db.example/earshot' }, ['backup']);
    assert.equal(postgres.status, 1);
    assert.match(postgres.stderr, /pg_dump --format=custom --file earshot\.dump "\$DATABASE_URL"/);
  });
});
