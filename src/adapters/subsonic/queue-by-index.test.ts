import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { assertWellFormed, rest, restJson, subsonicUser } from './client-testing.ts';
import { createTestLibrary, type TestLibrary } from './library-testing.ts';

describeWithApp('Subsonic REST: the play queue by index (OpenSubsonic indexBasedQueue)', (app) => {
  let user: Awaited<ReturnType<typeof subsonicUser>>;
  let library: TestLibrary;
  let ids: string[];
  const auth = () => ({ u: user.handle, p: user.key, c: 'index-player' });

  /** savePlayQueueByIndex as a form POST (formPost), the way a long queue is sent; ids repeat. */
  async function save(songIds: string[], extra: Record<string, string> = {}): Promise<any> {
    const body = new URLSearchParams({ f: 'json', ...auth(), ...extra });
    for (const id of songIds) body.append('id', id);
    const response = await fetch(`${app().apiUrl}/rest/savePlayQueueByIndex`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    return ((await response.json()) as any)['subsonic-response'];
  }
  const read = async () => (await restJson(app(), 'getPlayQueueByIndex', auth())).playQueueByIndex;

  before(async () => {
    user = await subsonicUser(app(), 'indexer');
    library = await createTestLibrary(app().ctx.db);
    ids = [...library.tracks.values()];
  });
  after(() => library.remove());

  test('a song queued twice: the second copy stays current, in getPlayQueueByIndex and getPlayQueue alike', async () => {
    const [a, b] = [ids[0]!, ids[1]!];
    assert.equal((await save([a, b, a], { currentIndex: '2', position: '61500' })).status, 'ok');
    const queue = await read();
    assert.deepEqual(
      [queue.entry.map((song: { id: string }) => song.id), queue.currentIndex, queue.position, queue.username, queue.changedBy, queue.current],
      [[a, b, a], 2, 61500, user.handle, 'index-player', undefined],
    );
    assert.match(queue.changed, /^\d{4}-\d{2}-\d{2}T/);
    const byId = (await restJson(app(), 'getPlayQueue', auth())).playQueue;
    assert.deepEqual([byId.current, byId.currentIndex], [a, undefined]);
    const xml = await (await rest(app(), 'getPlayQueueByIndex', auth())).text();
    assertWellFormed(xml);
    assert.match(xml, /<playQueueByIndex currentIndex="2" position="61500" username="indexer"[^>]*><entry /);
  });

  test('currentIndex is required with songs and must lie in the queue (error 10); none clears the queue', async () => {
    const before = await read();
    assert.equal((await save([ids[0]!])).error.code, 10);
    assert.equal((await save([ids[0]!], { currentIndex: '1' })).error.code, 10);
    assert.equal((await save([ids[0]!], { currentIndex: '-1' })).error.code, 10);
    assert.equal((await save([], { currentIndex: '0' })).error.code, 10);
    assert.equal((await save([ids[0]!, '00000000-0000-4000-8000-000000000000'], { currentIndex: '0' })).error.code, 70);
    assert.deepEqual(await read(), before, 'a refused save changes nothing');
    assert.equal((await save([ids[1]!], { currentIndex: '0', position: '' })).status, 'ok', 'an empty position is 0');
    assert.deepEqual([(await read()).currentIndex, (await read()).position], [0, 0]);
    assert.equal((await save([])).status, 'ok');
    const cleared = await read();
    assert.deepEqual([cleared.entry, cleared.currentIndex, cleared.position], [[], undefined, 0]);
  });
});
