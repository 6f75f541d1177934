import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ProviderError } from '../errors.ts';
import { AccessTokenRefused } from '../http.ts';
import type { FileHostClient, RemoteChange, RemoteEntry } from '../types.ts';
import { createFileHostAClient } from './client.ts';
import { type FakeFileHost, startFakeFileHostA } from './fake.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

let host: FakeFileHost;
let client: FileHostClient;
let token: string;

before(async () => {
  host = await startFakeFileHostA({ pageSize: 2 });
  client = createFileHostAClient(host.config);
  token = host.oauth.grant().accessToken;
});

after(() => host.close());

const failure = (name: ProviderError['failure']) => (error: unknown) => error instanceof ProviderError && error.failure === name;

/** A mirror of a tree as a sync keeps it: entries by path. */
type Mirror = Map<string, RemoteEntry>;

const isUnder = (path: string, ancestor: string) => path === ancestor || path.startsWith(`${ancestor}/`);
const parentOf = (path: string) => path.split('/').slice(0, -1).join('/');
const mirrorOf = (entries: RemoteEntry[]): Mirror => new Map(entries.map((entry) => [entry.path, entry]));
const lookupIn = (mirror: Mirror) => async (id: string) => [...mirror.values()].find((entry) => entry.id === id)?.path ?? null;
const snapshot = (mirror: Mirror) => [...mirror.values()].map((entry) => `${entry.kind} ${entry.path} ${entry.id} ${entry.size ?? ''}`).sort();

/** Applies changes in order, checking that order is safe: parents first, no id in two places. */
function apply(mirror: Mirror, changes: RemoteChange[]): void {
  for (const change of changes) {
    if (change.kind === 'removed') {
      for (const path of mirror.keys()) if (isUnder(path, change.path)) mirror.delete(path);
      continue;
    }
    const parent = parentOf(change.path);
    assert.ok(parent === '' || mirror.get(parent)?.kind === 'folder', `${change.path} arrives before its folder`);
    const elsewhere = [...mirror.values()].find((entry) => entry.id === change.id && entry.path !== change.path);
    assert.equal(elsewhere, undefined, `${change.path} is still mirrored at ${elsewhere?.path}`);
    mirror.set(change.path, change);
  }
}

/** One incremental sync: the changes since `cursor`, applied; the mirror must then equal a fresh listing. */
async function sync(rootPath: string, mirror: Mirror, cursor: string): Promise<{ changes: RemoteChange[]; cursor: string }> {
  const result = await client.changes(token, rootPath, cursor, lookupIn(mirror));
  assert.notEqual(result, 'reset');
  if (result === 'reset') throw new Error('unreachable');
  apply(mirror, result.changes);
  const fresh = await client.listTree(token, rootPath);
  assert.deepEqual(snapshot(mirror), snapshot(mirrorOf(fresh.entries)));
  return result;
}

const describe = (changes: RemoteChange[]) => changes.map((change) => `${change.kind} ${change.path}`);

test('oauth settings ask for offline read-only access; account names the user', async () => {
  assert.deepEqual(client.oauth.scopes, ['https://www.googleapis.com/auth/drive.readonly']);
  assert.equal(client.oauth.pkce, true);
  assert.deepEqual(client.oauth.authorizeParams, { access_type: 'offline', prompt: 'consent' });
  assert.deepEqual(await client.account(token), { id: 'perm-fake-user', name: 'fake-user@example.com' });
});

test('listTree lists nested folders over small pages, parents before children, skipping Google Docs', async () => {
  const modified = new Date('2024-03-01T10:00:00.000Z');
  const rootId = host.addFolder('/List');
  host.addFile('/List/Rock/a.mp3', bytes('aaaa'), modified);
  host.addFile('/List/Rock/b.mp3', bytes('bb'));
  host.addFile('/List/Rock/Live/c.flac', bytes('c'));
  host.addFile('/List/Jazz/d.mp3', bytes('d'));
  host.addFile('/List/e.mp3', bytes('e'));
  host.addFile('/List/notes.gdoc', bytes(''));
  host.addFile('/Elsewhere/x.mp3', bytes('x'));
  const requestsBefore = host.server.requests.length;

  const { rootId: listedRoot, entries, cursor } = await client.listTree(token, '/List');
  assert.equal(listedRoot, rootId);
  assert.match(cursor, /\S/);
  assert.deepEqual(entries.map((entry) => entry.path).sort(), [
    'Jazz',
    'Jazz/d.mp3',
    'Rock',
    'Rock/Live',
    'Rock/Live/c.flac',
    'Rock/a.mp3',
    'Rock/b.mp3',
    'e.mp3',
  ]);
  entries.forEach((entry, index) => {
    const parent = parentOf(entry.path);
    if (parent !== '') assert.ok(entries.findIndex((other) => other.path === parent) < index, `${entry.path} before its folder`);
  });
  const a = entries.find((entry) => entry.path === 'Rock/a.mp3')!;
  assert.deepEqual({ ...a, id: '' }, { kind: 'file', id: '', path: 'Rock/a.mp3', name: 'a.mp3', size: 4, modifiedAt: modified, serverModified: modified });
  assert.deepEqual(
    entries.find((entry) => entry.path === 'Rock'),
    { kind: 'folder', id: entries.find((entry) => entry.path === 'Rock')!.id, path: 'Rock', name: 'Rock' },
  );
  assert.ok(
    host.server.requests.slice(requestsBefore).some((request) => request.startsWith('GET /files?') && request.includes('pageToken=')),
    'paged',
  );

  assert.deepEqual((await client.listTree(token, '/List/Rock/')).entries.map((entry) => entry.path).sort(), ['Live', 'Live/c.flac', 'a.mp3', 'b.mp3']);
  const everything = (await client.listTree(token, '/')).entries.map((entry) => entry.path);
  assert.ok(everything.includes('List/Rock/Live/c.flac') && everything.includes('Elsewhere/x.mp3'));
});

test('listTree: a missing folder, or a file in its place, is FolderNotFound', async () => {
  host.addFile('/Missing/file.mp3', bytes('f'));
  await assert.rejects(client.listTree(token, '/NoSuchFolder'), failure('FolderNotFound'));
  await assert.rejects(client.listTree(token, '/Missing/Nope/Deeper'), failure('FolderNotFound'));
  await assert.rejects(client.listTree(token, '/Missing/file.mp3'), failure('FolderNotFound'));
});

test("listTree finds folders whose names need escaping in Drive's query language", async () => {
  host.addFile("/Quote/It's a \\ 'test'/x.mp3", bytes('x'));
  const { entries } = await client.listTree(token, "/Quote/It's a \\ 'test'");
  assert.deepEqual(
    entries.map((entry) => entry.path),
    ['x.mp3'],
  );
});

test('changes one at a time: add, modify, remove, rename a folder, move in, move out', async () => {
  host.addFile('/One/A/one.mp3', bytes('1'));
  host.addFile('/One/A/Sub/two.mp3', bytes('2'));
  host.addFile('/One/top.mp3', bytes('t'));
  host.addFile('/Outside/Album/in.mp3', bytes('i'));
  const listed = await client.listTree(token, '/One');
  const mirror = mirrorOf(listed.entries);
  let cursor = listed.cursor;
  const step = async (change: () => void, expected: string[]) => {
    change();
    const result = await sync('/One', mirror, cursor);
    assert.deepEqual(describe(result.changes), expected);
    cursor = result.cursor;
  };

  await step(() => host.addFile('/One/new.mp3', bytes('new')), ['file new.mp3']);
  await step(() => host.addFile('/One/top.mp3', bytes('longer')), ['file top.mp3']);
  assert.equal(mirror.get('top.mp3')?.size, 6);
  await step(() => host.removePath('/One/new.mp3'), ['removed new.mp3']);
  await step(() => host.move('/One/A', '/One/A2'), ['removed A', 'folder A2', 'file A2/one.mp3', 'folder A2/Sub', 'file A2/Sub/two.mp3']);
  await step(() => host.move('/Outside/Album', '/One/A2/Album'), ['folder A2/Album', 'file A2/Album/in.mp3']);
  await step(() => host.move('/One/A2/Sub', '/Outside/Sub'), ['removed A2/Sub']);
  await step(() => host.move('/One/top.mp3', '/Outside/top.mp3'), ['removed top.mp3']);
  await step(() => host.removePath('/One/A2'), ['removed A2']);
  await step(() => host.addFile('/Outside/elsewhere.mp3', bytes('e')), []);
});

test('changes all at once land in an order safe to apply', async () => {
  host.addFile('/All/A/one.mp3', bytes('1'));
  host.addFile('/All/A/Sub/two.mp3', bytes('2'));
  host.addFile('/All/B/three.mp3', bytes('3'));
  host.addFile('/All/B/Deep/four.mp3', bytes('4'));
  host.addFile('/All/C/c.mp3', bytes('c'));
  host.addFile('/All/top.mp3', bytes('t'));
  host.addFile('/Away/Album/in.mp3', bytes('i'));
  const listed = await client.listTree(token, '/All');
  const mirror = mirrorOf(listed.entries);

  host.addFile('/All/new.mp3', bytes('new'));
  host.addFile('/All/top.mp3', bytes('changed'));
  host.removePath('/All/B/three.mp3');
  // Changed inside a folder that then moves: the old place of what is inside is stale.
  host.addFile('/All/A/Sub/two.mp3', bytes('22'));
  host.move('/All/A', '/All/A2');
  host.addFile('/All/B/Deep/four.mp3', bytes('44'));
  host.move('/All/B', '/Away/B');
  host.move('/Away/Album', '/All/Album');
  host.removePath('/All/C');
  // A child changed before its new parent: the folder is reported after the file.
  host.addFile('/All/N/f.mp3', bytes('f'));
  host.move('/All/N', '/All/N2');
  // A name taken over by something new after the old one moved.
  host.addFile('/All/A/again.mp3', bytes('a'));
  host.addFile('/Away/ignored.mp3', bytes('x'));

  const result = await sync('/All', mirror, listed.cursor);
  assert.deepEqual(describe(result.changes.filter((change) => change.kind === 'removed')), ['removed A', 'removed B', 'removed C']);
  assert.equal(mirror.get('A2/Sub/two.mp3')?.size, 2);
  assert.deepEqual([...mirror.keys()].sort(), [
    'A',
    'A/again.mp3',
    'A2',
    'A2/Sub',
    'A2/Sub/two.mp3',
    'A2/one.mp3',
    'Album',
    'Album/in.mp3',
    'N2',
    'N2/f.mp3',
    'new.mp3',
    'top.mp3',
  ]);
  assert.deepEqual((await sync('/All', mirror, result.cursor)).changes, []);
});

test('changes: a cursor Drive does not know is a reset', async () => {
  assert.equal(await client.changes(token, '/', 'not-a-token', async () => null), 'reset');
  assert.equal(await client.changes(token, '/', '99999999', async () => null), 'reset');
});

test('download: whole, a byte range, and a range past the end', async () => {
  const content = bytes('0123456789');
  const id = host.addFile('/Down/song.mp3', content);
  const file = { id, path: 'song.mp3' };
  const served = host.bytesServed;

  const whole = await client.download(token, file, '/Down');
  assert.equal(whole.status, 200);
  assert.deepEqual(new Uint8Array(await whole.arrayBuffer()), content);

  const part = await client.download(token, file, '/Down', 'bytes=2-5');
  assert.equal(part.status, 206);
  assert.equal(part.headers.get('content-range'), 'bytes 2-5/10');
  assert.equal(await part.text(), '2345');
  assert.equal(await (await client.download(token, file, '/Down', 'bytes=-3')).text(), '789');
  assert.equal(host.bytesServed - served, 10 + 4 + 3);

  const past = await client.download(token, file, '/Down', 'bytes=10-');
  assert.equal(past.status, 416);
  assert.equal(past.headers.get('content-range'), 'bytes */10');
  await past.body?.cancel();

  host.removePath('/Down/song.mp3');
  await assert.rejects(
    client.download(token, file, '/Down'),
    (error: unknown) => failure('FolderNotFound')(error) && /song\.mp3 is no longer at filehostA/.test((error as Error).message),
  );
});

test('provider failures: refused token, rate limit, outage, dropped connection', async () => {
  host.server.failNext({ status: 429, headers: { 'retry-after': '7' } }, '/about');
  await assert.rejects(client.account(token), (error: unknown) => failure('RateLimited')(error) && (error as ProviderError).retryAfterSeconds === 7);
  host.server.failNext({ status: 503 }, '/files');
  await assert.rejects(client.listTree(token, '/List'), failure('Unavailable'));
  host.server.failNext('drop', '/changes');
  await assert.rejects(client.listTree(token, '/List'), failure('Unavailable'));
  host.server.failNext({ status: 500 }, '/changes');
  await assert.rejects(
    client.changes(token, '/List', '1', async () => null),
    failure('Unavailable'),
  );

  host.oauth.expireAccessTokens();
  await assert.rejects(client.account(token), AccessTokenRefused);
  await assert.rejects(client.download(token, { id: 'x', path: 'x.mp3' }, '/'), AccessTokenRefused);
  token = host.oauth.grant().accessToken;
  assert.equal((await client.account(token)).id, 'perm-fake-user');
});
