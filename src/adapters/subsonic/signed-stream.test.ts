import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { signStreamUrl } from '../../core/library/signed-stream.ts';
import { createTestLibrary, DEFAULT_SONGS, type TestLibrary } from './library-testing.ts';

const BLUE = 'Beta/Blue Record/1-01 Blue.mp3';
const PRIVATE = 'Mine/Demo.mp3';

// How stream URLs are signed and checked: storage is only on the way.
describeWithApp(
  'the web player: signed stream URLs',
  (app) => {
    let shared: TestLibrary;
    let own: TestLibrary;
    let owner: { token: string; id: string };
    let other: { token: string; id: string };
    const userId = async (did: string) => (await app().ctx.db.selectFrom('users').select('id').where('did', '=', did).executeTakeFirstOrThrow()).id;
    const streamUrl = async (id: string, token: string) => app().query('app.svc.library.getStreamUrl', { id }, token);
    const get = (url: string, headers: Record<string, string> = {}) => fetch(`${app().apiUrl}${url}`, { headers });

    before(async () => {
      const first = await app().signup('owner');
      const second = await app().signup('other');
      owner = { token: first.token, id: await userId(first.did) };
      other = { token: second.token, id: await userId(second.did) };
      shared = await createTestLibrary(app().ctx.db);
      const demo = { path: PRIVATE, metadata: { ...DEFAULT_SONGS[0]!.metadata, title: 'Private Demo', album: 'Demos', artist: 'Owner' } };
      own = await createTestLibrary(app().ctx.db, [demo], { userId: owner.id, name: 'Mine' });
    });
    after(() => {
      shared.remove();
      own.remove();
    });

    test('a signed URL streams the song as stored, a Range as 206, with no credential but its signature', async () => {
      const whole = fs.readFileSync(path.join(shared.root, BLUE));
      const answer = await streamUrl(shared.tracks.get(BLUE)!, owner.token);
      assert.equal(answer.status, 200);
      assert.match(answer.body.url, /^\/library\/stream\/[0-9a-f-]+\?u=.+&exp=\d+&sig=/);
      const hours = (Date.parse(answer.body.expiresAt) - Date.now()) / 3_600_000;
      assert.ok(hours > 5.9 && hours <= 6, `expires in ${hours} hours`);
      const full = await get(answer.body.url);
      assert.equal(full.status, 200);
      assert.equal(full.headers.get('content-type'), 'audio/mpeg');
      assert.equal(full.headers.get('accept-ranges'), 'bytes');
      // The bytes are a file's: never sniffed into a page, never run as one, never kept by a shared cache.
      assert.equal(full.headers.get('x-content-type-options'), 'nosniff');
      assert.match(full.headers.get('content-security-policy') ?? '', /sandbox/);
      assert.equal(full.headers.get('cache-control'), 'private');
      assert.deepEqual(Buffer.from(await full.arrayBuffer()), whole);
      const part = await get(answer.body.url, { range: 'bytes=100-199' });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 100-199/${whole.length}`);
      assert.deepEqual(Buffer.from(await part.arrayBuffer()), whole.subarray(100, 200));
    });

    test('a tampered, incomplete or expired URL is refused with an XRPC error', async () => {
      const song = shared.tracks.get(BLUE)!;
      const { url } = (await streamUrl(song, owner.token)).body as { url: string };
      const signed = new URL(url, 'http://x');
      const variants: [string, string][] = [
        [url.replace(/sig=./, (start) => `sig=${start.endsWith('A') ? 'B' : 'A'}`), 'InvalidToken'],
        [url.replace(`exp=${signed.searchParams.get('exp')}`, `exp=${Number(signed.searchParams.get('exp')) + 3600}`), 'InvalidToken'],
        [url.replace(song, shared.tracks.get('Loose Track.mp3')!), 'InvalidToken'],
        [url.replace(/&sig=.*$/, ''), 'InvalidToken'],
        [signStreamUrl(app().ctx.keys, owner.id, song, new Date(Date.now() - 7 * 3_600_000)).url, 'ExpiredToken'],
      ];
      for (const [refused, error] of variants) {
        const response = await get(refused);
        assert.equal(response.status, 401, refused);
        assert.equal(((await response.json()) as { error: string }).error, error, refused);
      }
    });

    test("another user's file can be neither signed for nor streamed", async () => {
      const demo = own.tracks.get(PRIVATE)!;
      const mine = await streamUrl(demo, owner.token);
      assert.equal((await get(mine.body.url)).status, 200);
      const theirs = await streamUrl(demo, other.token);
      assert.equal(theirs.status, 404);
      assert.equal(theirs.body.error, 'NotFound');
      // The owner's URL with the other user put in: the signature no longer matches.
      const swapped = await get(mine.body.url.replace(`u=${owner.id}`, `u=${other.id}`));
      assert.equal(swapped.status, 401);
      // A URL the server signed for the other user still finds nothing they may play.
      const signedForOther = await get(signStreamUrl(app().ctx.keys, other.id, demo).url);
      assert.equal(signedForOther.status, 404);
      assert.equal(((await signedForOther.json()) as { error: string }).error, 'NotFound');
      assert.equal((await streamUrl('not-a-song', owner.token)).status, 404);
    });

    test('asking for a URL needs a sign-in', async () => {
      const answer = await app().query('app.svc.library.getStreamUrl', { id: shared.tracks.get(BLUE)! });
      assert.equal(answer.status, 401);
    });
  },
  {},
  { storage: 'one' },
);
