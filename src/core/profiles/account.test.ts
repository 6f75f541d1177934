import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import { setAdmin } from '../auth/index.ts';
import { librarySource } from '../library/operations-testing.ts';
import { listenerWithHistory, type TestListener } from '../scrobbling/testing.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';

const UPDATE = 'app.svc.actor.updateProfile';
const PROFILE = 'app.svc.actor.getProfile';
const CHANGE_PASSWORD = 'app.svc.actor.changePassword';
const DELETE = 'app.svc.actor.deleteAccount';
const WRAPPED = 'app.svc.stats.getWrapped';
const CHECK = 'app.svc.apikey.getApikeys';
const PASSWORD = 'correct horse battery';

const status = async (app: TestApp, token: string) => (await app.query(CHECK, {}, token)).status;
const login = (app: TestApp, identifier: string, password: string) => app.request('POST', '/auth/login', { body: { identifier, password } });

/** Gives the user a row in every per-user table (a few through other users' hands), through the API where it is short. */
async function everythingOf(app: TestApp, user: TestListener, friend: TestListener): Promise<void> {
  const db = app.ctx.db;
  const { track_id: songId } = await db.selectFrom('scrobbles').select('track_id').where('user_id', '=', user.userId).executeTakeFirstOrThrow();
  const ok = async (result: Promise<{ status: number; body: unknown }>) =>
    assert.ok([200, 201].includes((await result).status), JSON.stringify((await result).body));
  await ok(app.procedure('app.svc.actor.follow', { did: friend.did }, user.token));
  await ok(app.procedure('app.svc.actor.follow', { did: user.did }, friend.token));
  await ok(app.procedure('app.svc.library.star', { id: songId }, user.token));
  await ok(app.procedure('app.svc.library.createPlaylist', { name: 'Mine', songId }, user.token));
  await ok(app.procedure('app.svc.library.updateNowPlaying', { id: songId }, user.token));
  await ok(app.procedure('app.svc.player.addItemsToQueue', { ids: songId }, user.token));
  await ok(app.request('POST', '/access-tokens', { token: user.token, body: { name: 'cli' } }));
  const key = (await app.procedure('app.svc.apikey.createApikey', { name: 'player' }, user.token)).body;
  const hash = () => randomBytes(32).toString('hex');
  const later = new Date(Date.now() + 3_600_000);
  // A friend's Last.fm session through this user's API key dies with the key.
  await db
    .insertInto('lastfm_sessions')
    .values([
      { user_id: user.userId, api_key_id: key.id, key_hash: hash() },
      { user_id: friend.userId, api_key_id: key.id, key_hash: hash() },
    ])
    .execute();
  await db.insertInto('lastfm_tokens').values({ token_hash: hash(), api_key_id: key.id, user_id: user.userId, expires_at: later }).execute();
  await db.insertInto('audioscrobbler_sessions').values({ session_hash: hash(), user_id: user.userId, api_key_id: key.id, expires_at: later }).execute();
  await db
    .insertInto('play_queues')
    .values({ user_id: user.userId, current: 0 })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  await db.insertInto('provider_accounts').values({ user_id: user.userId, provider: 'filehostA', account_name: 'me@example.com' }).execute();
  await librarySource(app, user.userId, [{ path: 'Album/1.mp3', trackId: songId }]);
  await db.insertInto('oauth_states').values({ nonce: hash(), user_id: user.userId, provider: 'filehostB', expires_at: later }).execute();
  await db.insertInto('import_checkpoints').values({ user_id: user.userId, fingerprint: hash(), format: 'listenbrainz' }).execute();
}

/** Rows per table that name the user: every table with a user_id column (found in the database, so new tables count too), and follows of them. */
async function rowsOf(app: TestApp, userId: string): Promise<Record<string, number>> {
  const { rows: tables } = await sql<{ table_name: string }>`select table_name from information_schema.columns
    where column_name = 'user_id' and table_schema = current_schema() order by table_name`.execute(app.ctx.db);
  const counts: Record<string, number> = {};
  // Raw SQL: the table names are only known at run time.
  for (const { table_name: table } of tables) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where user_id = ${userId}`.execute(app.ctx.db);
    counts[table] = rows[0]!.n;
  }
  const followers = await app.ctx.db
    .selectFrom('follows')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('subject_id', '=', userId)
    .executeTakeFirstOrThrow();
  counts['follows (as subject)'] = Number(followers.n);
  return counts;
}

describeWithApp('account settings', (app) => {
  test('updateProfile sets the fields given and answers the caller’s profile; others see all but the time zone', async () => {
    const me = await listenerWithHistory(app(), 'tess');
    const updated = await app().procedure(UPDATE, { displayName: '  Tess D.  ', timeZone: 'europe/berlin' }, me.token);
    assert.equal(updated.status, 200);
    const { createdAt, ...rest } = updated.body;
    assert.match(createdAt, /Z$/);
    assert.deepEqual(rest, {
      did: me.did,
      handle: 'tess',
      displayName: 'Tess D.',
      timeZone: 'Europe/Berlin',
      scrobblesCount: 0,
      artistsCount: 0,
      songsCount: 0,
      followersCount: 0,
      followingCount: 0,
      following: false,
      admin: true, // the server's first account is its admin
    });
    assert.deepEqual((await app().query(PROFILE, { did: 'tess' }, me.token)).body, updated.body);
    const seenByOthers = (await app().query(PROFILE, { did: 'tess' })).body;
    assert.deepEqual([seenByOthers.timeZone, seenByOthers.admin], [undefined, undefined]);
    assert.equal(seenByOthers.displayName, 'Tess D.');

    const partial = await app().procedure(UPDATE, { timeZone: 'Asia/Kolkata' }, me.token);
    assert.deepEqual([partial.body.displayName, partial.body.timeZone], ['Tess D.', 'Asia/Kolkata'], 'aliases are kept as typed');
    const cleared = await app().procedure(UPDATE, { displayName: null, avatar: null }, me.token);
    assert.deepEqual([cleared.body.displayName, cleared.body.avatar, cleared.body.timeZone], [undefined, undefined, 'Asia/Kolkata']);
    const emoji = '🎧'.repeat(64);
    assert.equal((await app().procedure(UPDATE, { displayName: emoji }, me.token)).body.displayName, emoji, '64 characters, not bytes');
  });

  test('an admin sees admin: true on their own profile only (the web app shows catalog edits by it)', async () => {
    const admin = await listenerWithHistory(app(), 'curator');
    const other = await listenerWithHistory(app(), 'visitor');
    await setAdmin(app().ctx.db, 'curator', true);
    assert.equal((await app().query(PROFILE, { did: 'curator' }, admin.token)).body.admin, true);
    assert.equal((await app().query(PROFILE, { did: 'curator' }, other.token)).body.admin, undefined);
    await setAdmin(app().ctx.db, 'curator', false);
    assert.equal((await app().query(PROFILE, { did: 'curator' }, admin.token)).body.admin, undefined);
  });

  test('bad input is 400 with what is wrong, and changes nothing', async () => {
    const me = await listenerWithHistory(app(), 'ugo');
    await app().procedure(UPDATE, { displayName: 'Ugo', timeZone: 'Asia/Tokyo' }, me.token);
    const cases: [unknown, RegExp][] = [
      [{ timeZone: 'Mars/Olympus' }, /unknown time zone Mars\/Olympus/],
      [{ timeZone: '+01:00' }, /unknown time zone \+01:00/],
      [{ timeZone: 'Europe/Berlin; drop table users' }, /unknown time zone/],
      [{ avatar: 'not a url' }, /avatar must be an http/],
      [{ avatar: 'ftp://files.example/u.jpg' }, /avatar must be an http/],
      [{ avatar: 'javascript:alert(1)' }, /avatar must be an http/],
      [{ avatar: `https://img.example/${'a'.repeat(2030)}` }, /at most 2048/],
      [{ displayName: '' }, /displayName must be 1 to 64/],
      [{ displayName: '   ' }, /displayName must be 1 to 64/],
      [{ displayName: 'x'.repeat(65) }, /displayName must be 1 to 64/],
      [{ displayName: 42 }, /displayName/],
      [{ displayName: 'Fine', timeZone: 'Nowhere/Special' }, /unknown time zone Nowhere\/Special/],
      [{}, /nothing to change/],
      [{ timezone: 'Europe/Paris' }, /nothing to change/],
    ];
    for (const [input, message] of cases) {
      const result = await app().procedure(UPDATE, input, me.token);
      assert.equal(result.status, 400, JSON.stringify(input));
      assert.equal(result.body.error, 'InvalidRequest');
      assert.match(result.body.message, message, JSON.stringify(input));
    }
    const profile = (await app().query(PROFILE, { did: 'ugo' }, me.token)).body;
    assert.deepEqual([profile.displayName, profile.avatar, profile.timeZone], ['Ugo', undefined, 'Asia/Tokyo']);
  });

  test('an API key cannot change the profile (403); no credential is 401', async () => {
    const { token } = await app().signup('vito');
    const { body: key } = await app().procedure('app.svc.apikey.createApikey', { name: 'player' }, token);
    assert.equal((await app().procedure(UPDATE, { displayName: 'Hijacked' }, key.key)).status, 403);
    assert.equal((await app().procedure(UPDATE, { displayName: 'Nobody' })).status, 401);
  });

  test('Wrapped follows the time zone set: a play just before UTC midnight moves to the next day, hour and year', async () => {
    const me = await listenerWithHistory(app(), 'wren', [{ at: '2024-12-31T23:30:00Z', artist: 'Kraftwerk', title: 'Neonlicht' }]);
    const wrapped = async (year: number) => (await app().query(WRAPPED, { did: 'wren', year })).body;
    const utc = await wrapped(2024);
    assert.deepEqual([utc.totalScrobbles, utc.mostActiveHour, (await wrapped(2025)).totalScrobbles], [1, 23, 0]);

    assert.equal((await app().procedure(UPDATE, { timeZone: 'Europe/Berlin' }, me.token)).status, 200);
    const berlin = await wrapped(2025);
    assert.equal(berlin.totalScrobbles, 1);
    assert.equal(berlin.mostActiveHour, 0);
    assert.deepEqual(berlin.mostActiveDay, { date: '2025-01-01', count: 1 });
    assert.equal((await wrapped(2024)).totalScrobbles, 0);
  });

  test('changePassword keeps the current session and access tokens, ends the other sessions, and swaps the password', async () => {
    const { token: current } = await app().signup('xavi', PASSWORD);
    const other = (await login(app(), 'xavi', PASSWORD)).body.token;
    const { body: pat } = await app().request('POST', '/access-tokens', { token: current, body: { name: 'cli' } });

    const wrong = await app().procedure(CHANGE_PASSWORD, { currentPassword: 'not my password', newPassword: 'brand new secret' }, current);
    assert.deepEqual([wrong.status, wrong.body], [403, { error: 'AuthenticationFailed', message: 'the password is wrong' }]);
    const short = await app().procedure(CHANGE_PASSWORD, { currentPassword: PASSWORD, newPassword: 'short' }, current);
    assert.deepEqual([short.status, short.body.message], [400, 'password must be at least 8 characters']);
    assert.equal(await status(app(), other), 200, 'refused changes end nothing');
    assert.equal((await login(app(), 'xavi', PASSWORD)).status, 200);

    const changed = await app().procedure(CHANGE_PASSWORD, { currentPassword: PASSWORD, newPassword: 'brand new secret' }, current);
    assert.deepEqual([changed.status, changed.body], [200, {}]);
    assert.equal(await status(app(), current), 200);
    assert.equal(await status(app(), other), 401);
    assert.equal(await status(app(), pat.token), 200);
    assert.equal((await login(app(), 'xavi', PASSWORD)).status, 401);
    assert.equal((await login(app(), 'xavi', 'brand new secret')).status, 200);
  });

  test('through an access token, changePassword ends every sign-in session', async () => {
    const { token: session } = await app().signup('yara', PASSWORD);
    const { body: pat } = await app().request('POST', '/access-tokens', { token: session, body: { name: 'cli' } });
    assert.equal((await app().procedure(CHANGE_PASSWORD, { currentPassword: PASSWORD, newPassword: 'another secret' }, pat.token)).status, 200);
    assert.equal(await status(app(), session), 401);
    assert.equal(await status(app(), pat.token), 200);
  });

  test('a wrong handle (400) or password (403) deletes nothing', async () => {
    const me = await listenerWithHistory(app(), 'zeno', [{ at: '2024-05-01T10:00:00Z', artist: 'Air', title: 'Alone in Kyoto' }]);
    const wrongHandle = await app().procedure(DELETE, { handle: 'someone-else', password: PASSWORD }, me.token);
    assert.deepEqual(
      [wrongHandle.status, wrongHandle.body.error, wrongHandle.body.message],
      [400, 'InvalidRequest', "to confirm, type this account's handle (zeno)"],
    );
    const wrongPassword = await app().procedure(DELETE, { handle: 'zeno', password: 'not my password' }, me.token);
    assert.deepEqual([wrongPassword.status, wrongPassword.body.error], [403, 'AuthenticationFailed']);
    assert.equal((await app().procedure(DELETE, { handle: 'zeno' }, me.token)).status, 400);
    assert.equal((await app().procedure(DELETE, { handle: 'zeno', password: PASSWORD })).status, 401);
    assert.equal((await app().query(PROFILE, { did: 'zeno' })).body.scrobblesCount, 1);
    assert.equal(await status(app(), me.token), 200);
  });

  test('deleting removes every row of the user, leaves the catalog and other users alone, and frees the handle', async () => {
    const me = await listenerWithHistory(app(), 'gone', [{ at: '2024-05-01T10:00:00Z', artist: 'Air', title: 'Alone in Kyoto' }]);
    const friend = await listenerWithHistory(app(), 'stays', [{ at: '2024-05-02T10:00:00Z', artist: 'Air', title: 'Alone in Kyoto' }]);
    await everythingOf(app(), me, friend);
    const { body: pat } = await app().request('POST', '/access-tokens', { token: me.token, body: { name: 'second' } });
    const { body: key } = await app().procedure('app.svc.apikey.createApikey', { name: 'second' }, me.token);
    const before = await rowsOf(app(), me.userId);
    const populated = [
      'scrobbles',
      'now_playing',
      'stars',
      'follows',
      'follows (as subject)',
      'playlists',
      'playlist_items',
      'queue_items',
      'play_queues',
      'api_keys',
      'access_tokens',
      'sign_in_sessions',
      'lastfm_sessions',
      'lastfm_tokens',
      'audioscrobbler_sessions',
      'provider_accounts',
      'library_sources',
      'library_directories',
      'library_files',
      'oauth_states',
      'import_checkpoints',
    ];
    for (const table of populated) assert.ok(before[table]! > 0, `${table} has a row to delete`);
    const catalog = async () =>
      (
        await app()
          .ctx.db.selectFrom('tracks')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const songs = await catalog();

    const deleted = await app().procedure(DELETE, { handle: '@Gone', password: PASSWORD }, me.token);
    assert.deepEqual([deleted.status, deleted.body], [200, {}]);

    const after = await rowsOf(app(), me.userId);
    assert.deepEqual(
      Object.entries(after).filter(([, n]) => n > 0),
      [],
      'no table keeps a row of the user',
    );
    const friendsSessionOnMyKey = await app().ctx.db.selectFrom('lastfm_sessions').select('id').where('user_id', '=', friend.userId).execute();
    assert.deepEqual(friendsSessionOnMyKey, []);
    assert.equal(await catalog(), songs);
    const friendProfile = (await app().query(PROFILE, { did: 'stays' }, friend.token)).body;
    assert.deepEqual([friendProfile.scrobblesCount, friendProfile.followersCount, friendProfile.followingCount], [1, 0, 0]);

    for (const token of [me.token, pat.token, key.key]) {
      const refused = await app().query(CHECK, {}, token);
      assert.deepEqual([refused.status, refused.body.error], [401, 'InvalidToken']);
    }
    assert.equal((await app().query(PROFILE, { did: 'gone' })).status, 404);
    assert.equal((await login(app(), 'gone', PASSWORD)).status, 401);
    const again = await app().signup('gone');
    assert.notEqual(again.did, me.did);
    assert.equal((await app().query(PROFILE, { did: 'gone' })).body.scrobblesCount, 0);
  });
});
