import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { catalogTracks, librarySource } from '../../core/library/operations-testing.ts';
import { listenerWithHistory } from '../../core/scrobbling/testing.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';

const P = (name: string) => `app.svc.player.${name}`;
const ADD_DIRECTORY = P('addDirectoryToQueue');

/**
 * A server-wide source: Album/01, Album/02, Album/Disc 2/01 (a subdirectory), Other/01, and an
 * unmatched file in Album; and a source of bob's own with one song.
 */
async function libraries(app: TestApp, bobId: string) {
  const songs = ['One', 'Two', 'Three', 'Four', 'Private'].map((title) => ({ artist: 'Queue Band', title, album: 'Queue Album' }));
  const [one, two, three, four, mine] = await catalogTracks(app, songs);
  const shared = await librarySource(app, null, [
    { path: 'Album/02.mp3', trackId: two! },
    { path: 'Album/01.mp3', trackId: one! },
    { path: 'Album/Disc 2/01.mp3', trackId: three! },
    { path: 'Album/unmatched.mp3', trackId: null },
    { path: 'Other/01.mp3', trackId: four! },
  ]);
  const bobs = await librarySource(app, bobId, [{ path: 'Mine/01.mp3', trackId: mine! }]);
  return { one: one!, two: two!, three: three!, four: four!, mine: mine!, shared, bobs };
}

const ids = (queue: { entry: { id: string }[] }) => queue.entry.map((song) => song.id);

/** The ids of the first page of the user's queue: a change answers where the queue stands, not its songs. */
const queued = async (app: TestApp, token: string) => ids((await app.query(P('getPlaybackQueue'), {}, token)).body.queue);

describeWithApp('player operations', (app) => {
  test('addDirectoryToQueue takes query parameters or a JSON body: path order, position, recurse, shuffle', async () => {
    const alice = await listenerWithHistory(app(), 'q-alice');
    const bob = await listenerWithHistory(app(), 'q-bob');
    const lib = await libraries(app(), bob.userId);

    const empty = await app().query(P('getPlaybackQueue'), {}, alice.token);
    assert.equal(empty.status, 200);
    assert.deepEqual(
      { ...empty.body.queue, changed: undefined },
      { songCount: 0, offset: 0, entry: [], position: 0, username: 'q-alice', changed: undefined, changedBy: '' },
    );

    // Query parameters only, no body at all, as the spec's source declares them.
    const byQuery = await app().request('POST', `/xrpc/${ADD_DIRECTORY}?directory=%2FAlbum`, { token: alice.token });
    assert.equal(byQuery.status, 200, JSON.stringify(byQuery.body));
    assert.deepEqual([byQuery.body.added, byQuery.body.position], [[lib.one, lib.two, lib.three], 0]);
    assert.equal(byQuery.body.queue.songCount, 3);
    assert.equal(byQuery.body.queue.entry, undefined, 'a change does not answer the songs');
    assert.deepEqual(await queued(app(), alice.token), [lib.one, lib.two, lib.three]);
    assert.equal((await app().query(P('getPlaybackQueue'), {}, alice.token)).body.queue.entry[0].path, 'Album/01.mp3');

    // A JSON body, by directory id, at the front.
    const byBody = await app().procedure(ADD_DIRECTORY, { directory: lib.shared.directories.get('Other'), position: 0, playerId: 'kitchen' }, alice.token);
    assert.equal(byBody.status, 200);
    assert.deepEqual(await queued(app(), alice.token), [lib.four, lib.one, lib.two, lib.three]);
    assert.equal(byBody.body.queue.changedBy, 'kitchen');

    // Without recursion only the directory's own files; body fields win over query ones.
    const flat = await app().request('POST', `/xrpc/${ADD_DIRECTORY}?directory=Other&recurse=true&position=0`, {
      token: alice.token,
      body: { directory: 'Album/', recurse: false, position: 1 },
    });
    assert.deepEqual([flat.status, flat.body.added, flat.body.position], [200, [lib.one, lib.two], 1]);
    assert.deepEqual(await queued(app(), alice.token), [lib.four, lib.one, lib.two, lib.one, lib.two, lib.three]);

    // Query and body merged: the directory from the query, the position from the body.
    const merged = await app().request('POST', `/xrpc/${ADD_DIRECTORY}?directory=Album%2FDisc%202&shuffle=false`, {
      token: alice.token,
      body: { position: 0 },
    });
    assert.deepEqual([merged.status, merged.body.added, (await queued(app(), alice.token))[0]], [200, [lib.three], lib.three]);

    const shuffled = await app().request('POST', `/xrpc/${ADD_DIRECTORY}?directory=/&shuffle=true`, { token: alice.token });
    assert.equal(shuffled.status, 200);
    assert.deepEqual([...shuffled.body.added].sort(), [lib.one, lib.two, lib.three, lib.four].sort(), 'the root takes every matched file, in some order');
    assert.equal(shuffled.body.position, 7);
    assert.equal(shuffled.body.queue.songCount, 11);
  });

  test("addDirectoryToQueue refuses unknown directories, other users' directories and bad input, leaving the queue as it was", async () => {
    const alice = await listenerWithHistory(app(), 'qe-alice');
    const bob = await listenerWithHistory(app(), 'qe-bob');
    const lib = await libraries(app(), bob.userId);
    await app().procedure(P('addItemsToQueue'), { ids: [lib.one, lib.two] }, alice.token);
    const before = (await app().query(P('getPlaybackQueue'), {}, alice.token)).body.queue;
    const cases: [string, unknown, number, string][] = [
      ['?directory=Mine', undefined, 404, 'NotFound'],
      ['', { directory: lib.bobs.directories.get('Mine') }, 404, 'NotFound'],
      ['', { directory: randomUUID() }, 404, 'NotFound'],
      ['?directory=Nowhere', undefined, 404, 'NotFound'],
      ['', {}, 400, 'InvalidRequest'],
      ['?position=0', undefined, 400, 'InvalidRequest'],
      ['', { directory: 'Album', position: 3 }, 400, 'InvalidRequest'],
      ['?directory=Album&position=-1', undefined, 400, 'InvalidRequest'],
      ['?directory=Album&shuffle=maybe', undefined, 400, 'InvalidRequest'],
      ['', { directory: 'Album', recurse: 'yes' }, 400, 'InvalidRequest'],
    ];
    for (const [query, body, status, error] of cases) {
      const result = await app().request('POST', `/xrpc/${ADD_DIRECTORY}${query}`, { token: alice.token, body });
      assert.deepEqual([result.status, result.body.error], [status, error], `${query} ${JSON.stringify(body)}`);
    }
    assert.deepEqual((await app().query(P('getPlaybackQueue'), {}, alice.token)).body.queue, before);
    const bobs = await app().request('POST', `/xrpc/${ADD_DIRECTORY}?directory=Mine`, { token: bob.token });
    assert.deepEqual([bobs.status, bobs.body.added], [200, [lib.mine]], 'the owner sees their own source');
    const anonymous = await app().request('POST', `/xrpc/${ADD_DIRECTORY}?directory=Album`);
    assert.deepEqual([anonymous.status, anonymous.body.error], [401, 'AuthMissing']);
  });

  test('addItemsToQueue, removeFromQueue and clearQueue answer where the queue stands; bad input changes nothing', async () => {
    const alice = await listenerWithHistory(app(), 'qi-alice');
    const bob = await listenerWithHistory(app(), 'qi-bob');
    const lib = await libraries(app(), bob.userId);
    let result = await app().procedure(P('addItemsToQueue'), { ids: [lib.one, lib.two, lib.three] }, alice.token);
    assert.deepEqual([result.status, result.body.position, result.body.queue.songCount, result.body.queue.changedBy], [200, 0, 3, 'xrpc']);
    assert.deepEqual(await queued(app(), alice.token), [lib.one, lib.two, lib.three]);
    result = await app().procedure(P('addItemsToQueue'), { ids: lib.four, position: 1 }, alice.token);
    assert.deepEqual([result.body.position, await queued(app(), alice.token)], [1, [lib.one, lib.four, lib.two, lib.three]]);

    const refused: [string, unknown, number][] = [
      ['addItemsToQueue', { ids: [lib.one, randomUUID()] }, 404],
      ['addItemsToQueue', { ids: 'nope' }, 404],
      ['addItemsToQueue', { ids: lib.one, position: 5 }, 400],
      ['addItemsToQueue', {}, 400],
      ['removeFromQueue', { positions: [0, 4] }, 400],
      ['removeFromQueue', { positions: [] }, 400],
      ['removeFromQueue', {}, 400],
    ];
    for (const [name, input, status] of refused)
      assert.equal((await app().procedure(P(name), input, alice.token)).status, status, `${name} ${JSON.stringify(input)}`);
    assert.deepEqual(await queued(app(), alice.token), [lib.one, lib.four, lib.two, lib.three]);

    result = await app().procedure(P('removeFromQueue'), { positions: [3, 0] }, alice.token);
    assert.deepEqual([result.status, result.body.queue.songCount, await queued(app(), alice.token)], [200, 2, [lib.four, lib.two]]);
    result = await app().procedure(P('removeFromQueue'), { positions: 1 }, alice.token);
    assert.deepEqual(await queued(app(), alice.token), [lib.four]);
    result = await app().procedure(P('clearQueue'), {}, alice.token);
    assert.deepEqual([result.status, result.body.queue.songCount, result.body.queue.current, await queued(app(), alice.token)], [200, 0, undefined, []]);
    for (const name of ['addItemsToQueue', 'removeFromQueue', 'clearQueue'])
      assert.equal((await app().procedure(P(name), { ids: lib.one, positions: 0 })).status, 401, name);
    assert.equal((await app().query(P('getPlaybackQueue'))).status, 401);
  });

  test('changes from several clients at once all land: each takes the queue in turn', async () => {
    const alice = await listenerWithHistory(app(), 'qc-alice');
    const bob = await listenerWithHistory(app(), 'qc-bob');
    const lib = await libraries(app(), bob.userId);
    const songs = [lib.one, lib.two, lib.three, lib.four];
    const results = await Promise.all(songs.map((id) => app().procedure(P('addItemsToQueue'), { ids: [id, id] }, alice.token)));
    assert.deepEqual(
      results.map((result) => result.status),
      [200, 200, 200, 200],
    );
    const queue = await queued(app(), alice.token);
    assert.equal(queue.length, 8);
    for (let i = 0; i < 8; i += 2) assert.equal(queue[i], queue[i + 1], 'each call inserted its songs together');
    assert.deepEqual([...new Set(queue)].sort(), [...songs].sort());
  });

  test('getPlaybackQueue answers a page at a time; changes answer where the queue stands, and keep its order', async () => {
    const alice = await listenerWithHistory(app(), 'qp-alice');
    const bob = await listenerWithHistory(app(), 'qp-bob');
    const lib = await libraries(app(), bob.userId);
    let model = Array.from({ length: 1200 }, (_, i) => [lib.one, lib.two, lib.three][i % 3]!);
    const added = await app().procedure(P('addItemsToQueue'), { ids: model }, alice.token);
    assert.deepEqual([added.status, added.body.queue.songCount], [200, 1200]);
    assert.ok(JSON.stringify(added.body).length < 1000, 'a change answers no songs');

    const page = async (params: Record<string, number>) => (await app().query(P('getPlaybackQueue'), params, alice.token)).body.queue;
    const first = await page({});
    assert.deepEqual([first.songCount, first.offset, first.entry.length], [1200, 0, 500], 'the default page');
    const last = await page({ offset: 1000, limit: 1000 });
    assert.deepEqual([last.offset, ids(last)], [1000, model.slice(1000)]);
    for (const params of [{ limit: 1001 }, { limit: 0 }, { offset: -1 }] as Record<string, number>[])
      assert.equal((await app().query(P('getPlaybackQueue'), params, alice.token)).status, 400, JSON.stringify(params));
    const whole = async () => [...ids(await page({ limit: 1000 })), ...ids(await page({ offset: 1000, limit: 1000 }))];

    // Inserting in the middle and removing scattered songs move only what follows, in order.
    await app().procedure(P('addItemsToQueue'), { ids: [lib.four, lib.four], position: 600 }, alice.token);
    model = [...model.slice(0, 600), lib.four, lib.four, ...model.slice(600)];
    const removed = await app().procedure(P('removeFromQueue'), { positions: [1201, 0, 599, 601, 601] }, alice.token);
    assert.equal(removed.body.queue.songCount, 1198);
    model = model.filter((_, i) => ![1201, 0, 599, 601].includes(i));
    assert.deepEqual(await whole(), model);
  });
});
