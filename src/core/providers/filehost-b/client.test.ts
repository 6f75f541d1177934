import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProviderError } from '../errors.ts';
import { AccessTokenRefused } from '../http.ts';
import type { FileHostClient, RemoteChange, RemoteEntry } from '../types.ts';
import { createFileHostBClient } from './client.ts';
import { startFakeFileHostB, type FakeFileHostB as FakeFileHost } from './fake.ts';
import { headerJson } from './header-json.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const noLookup = async () => null;

/** A fresh fake (pages of 2, so every listing pages) with a client and a token for it. */
async function withFake(run: (fake: FakeFileHost, client: FileHostClient, token: string) => Promise<void>, options: { account?: string } = {}): Promise<void> {
  const fake = await startFakeFileHostB({ pageSize: 2, ...options });
  try {
    await run(fake, createFileHostBClient(fake.config), fake.oauth.grant().accessToken);
  } finally {
    await fake.close();
  }
}

function assertParentsFirst(entries: RemoteEntry[]): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    const parent = entry.path.slice(0, Math.max(0, entry.path.lastIndexOf('/')));
    assert.ok(parent === '' || seen.has(parent), `${entry.path} listed before its folder`);
    seen.add(entry.path);
  }
}

const failure = (name: ProviderError['failure']) => (error: unknown) => error instanceof ProviderError && error.failure === name;

test('account: the account id and its email', async () => {
  await withFake(
    async (_fake, client, token) => {
      const account = await client.account(token);
      assert.match(account.id, /^dbid:/);
      assert.equal(account.name, 'listener@example.org');
    },
    { account: 'listener@example.org' },
  );
});

test('listTree: every page, recursive, parents first, display case kept, the folder itself left out', async () => {
  await withFake(async (fake, client, token) => {
    const rootId = fake.addFolder('/Music');
    const rockId = fake.addFolder('/Music/Rock');
    const when = new Date('2024-03-01T10:20:30Z');
    fake.addFile('/music/rock/Deep/b.mp3', bytes('bbb'), when);
    fake.addFile('/Music/Jazz/c.flac', bytes('cccc'));
    fake.addFile('/Music/top.mp3', bytes('t'));
    fake.addFile('/Other/x.mp3', bytes('x'));
    const listed = await client.listTree(token, '/music');
    assert.equal(listed.rootId, rootId);
    assert.deepEqual(listed.entries.map((entry) => entry.path).sort(), ['Jazz', 'Jazz/c.flac', 'Rock', 'Rock/Deep', 'Rock/Deep/b.mp3', 'top.mp3']);
    assertParentsFirst(listed.entries);
    assert.deepEqual(
      listed.entries.find((entry) => entry.path === 'Rock'),
      { kind: 'folder', id: rockId, path: 'Rock', name: 'Rock' },
    );
    const file = listed.entries.find((entry) => entry.path === 'Rock/Deep/b.mp3');
    assert.deepEqual(file, {
      kind: 'file',
      id: file?.id,
      path: 'Rock/Deep/b.mp3',
      name: 'b.mp3',
      size: 3,
      modifiedAt: when,
      clientModified: when,
      serverModified: when,
    });
    assert.ok(fake.server.requests.filter((request) => request === 'POST /files/list_folder/continue').length >= 3, 'the listing was paged');
  });
});

test('listTree: the whole drive is the root, its id the home namespace', async () => {
  await withFake(async (fake, client, token) => {
    fake.addFile('/Music/a.mp3', bytes('a'));
    const listed = await client.listTree(token, '/');
    assert.match(listed.rootId, /^ns:\d+$/);
    assert.deepEqual(
      listed.entries.map((entry) => entry.path),
      ['Music', 'Music/a.mp3'],
    );
  });
});

test('listTree: a missing folder, or a file, is FolderNotFound', async () => {
  await withFake(async (fake, client, token) => {
    fake.addFile('/Music.mp3', bytes('m'));
    await assert.rejects(client.listTree(token, '/Music'), failure('FolderNotFound'));
    await assert.rejects(client.listTree(token, '/Music.mp3'), failure('FolderNotFound'));
  });
});

test('changes: additions, new content, removals and moves (as removal and addition, ids kept), none outside the folder', async () => {
  await withFake(async (fake, client, token) => {
    fake.addFile('/Music/Rock/a.mp3', bytes('a'));
    const deepId = fake.addFolder('/Music/Rock/Deep');
    const bId = fake.addFile('/Music/Rock/Deep/b.mp3', bytes('b'));
    fake.addFile('/Music/Jazz/c.flac', bytes('c'));
    const listed = await client.listTree(token, '/Music');
    const before = listed.entries.find((entry) => entry.path === 'Rock/a.mp3');

    fake.addFile('/Music/Rock/new.mp3', bytes('new'));
    fake.addFile('/Music/Rock/a.mp3', bytes('a, again'));
    fake.removePath('/Music/Jazz');
    fake.move('/Music/Rock/Deep', '/Music/Deeper');
    fake.addFile('/Other/x.mp3', bytes('x'));
    const result = await client.changes(token, '/Music', listed.cursor, noLookup);
    assert.notEqual(result, 'reset');
    if (result === 'reset') return;
    const summary = (change: RemoteChange) => (change.kind === 'removed' ? `-${change.path}` : `+${change.path}`);
    assert.deepEqual(result.changes.map(summary), ['+Rock/new.mp3', '+Rock/a.mp3', '-Jazz', '-Rock/Deep', '+Deeper', '+Deeper/b.mp3']);
    const modified = result.changes[1] as RemoteEntry;
    assert.equal(modified.id, before?.id);
    assert.equal(modified.size, 8);
    assert.ok(modified.modifiedAt! > before!.modifiedAt!, 'new content has a later server_modified');
    assert.deepEqual(
      result.changes.slice(4).map((change) => (change as RemoteEntry).id),
      [deepId, bId],
    );

    const quiet = await client.changes(token, '/Music', result.cursor, noLookup);
    assert.deepEqual(quiet !== 'reset' && quiet.changes, []);
  });
});

test('changes: a cursor the host no longer honours is reset; a new listing starts again', async () => {
  await withFake(async (fake, client, token) => {
    fake.addFile('/Music/a.mp3', bytes('a'));
    const listed = await client.listTree(token, '/Music');
    fake.resetCursors();
    assert.equal(await client.changes(token, '/Music', listed.cursor, noLookup), 'reset');
    const again = await client.listTree(token, '/Music');
    assert.deepEqual(await client.changes(token, '/Music', again.cursor, noLookup).then((result) => result !== 'reset' && result.changes), []);
  });
});

test('changes: the mirrored folder gone is FolderNotFound', async () => {
  await withFake(async (fake, client, token) => {
    fake.addFile('/Music/a.mp3', bytes('a'));
    const listed = await client.listTree(token, '/Music');
    fake.removePath('/Music');
    await assert.rejects(client.changes(token, '/Music', listed.cursor, noLookup), failure('FolderNotFound'));
  });
});

test('download: whole, a byte range (206, exact bytes), past the end (416), by id after a move, gone', async () => {
  await withFake(async (fake, client, token) => {
    const id = fake.addFile('/Music/Björk/Jóga.mp3', bytes('0123456789'));
    const file = { id, path: 'Björk/Jóga.mp3' };
    const whole = await client.download(token, file, '/Music');
    assert.equal(whole.status, 200);
    assert.equal(await whole.text(), '0123456789');
    assert.equal(JSON.parse(whole.headers.get('dropbox-api-result')!).name, 'Jóga.mp3');

    const served = fake.bytesServed;
    const part = await client.download(token, file, '/Music', 'bytes=2-5');
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), 'bytes 2-5/10');
    assert.equal(await part.text(), '2345');
    assert.equal(fake.bytesServed - served, 4);

    const past = await client.download(token, file, '/Music', 'bytes=20-');
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), 'bytes */10');
    await past.body?.cancel();

    fake.move('/Music/Björk', '/Music/Bjork');
    assert.equal(await (await client.download(token, file, '/Music', 'bytes=-3')).text(), '789');

    fake.removePath('/Music/Bjork');
    await assert.rejects(
      client.download(token, file, '/Music'),
      (error: unknown) => failure('FolderNotFound')(error) && /Björk\/Jóga\.mp3 is no longer at filehostB/.test((error as Error).message),
    );
  });
});

test('errors: a refused token, rate limiting with Retry-After, 5xx and a dropped connection', async () => {
  await withFake(async (fake, client, token) => {
    fake.addFolder('/Music');
    fake.server.failNext(
      { status: 429, headers: { 'retry-after': '7' }, body: { error_summary: 'too_many_requests/..', error: { '.tag': 'too_many_requests' } } },
      '/files/list_folder',
    );
    await assert.rejects(
      client.listTree(token, '/Music'),
      (error: unknown) => failure('RateLimited')(error) && (error as ProviderError).retryAfterSeconds === 7,
    );
    fake.server.failNext({ status: 500 }, '/files/get_metadata');
    await assert.rejects(client.listTree(token, '/Music'), failure('Unavailable'));
    fake.server.failNext('drop', '/files/download');
    await assert.rejects(client.download(token, { id: 'id:x', path: 'x.mp3' }, '/Music'), failure('Unavailable'));
    fake.oauth.expireAccessTokens();
    await assert.rejects(client.account(token), (error: unknown) => error instanceof AccessTokenRefused);
    await assert.rejects(client.listTree(token, '/Music'), (error: unknown) => error instanceof AccessTokenRefused);
  });
});

test('headerJson escapes what HTTP headers cannot carry', () => {
  assert.equal(headerJson({ path: '/Björk/🎵' }), '{"path":"/Bj\\u00f6rk/\\ud83c\\udfb5"}');
  assert.deepEqual(JSON.parse(headerJson({ path: '/Björk/🎵' })), { path: '/Björk/🎵' });
});
