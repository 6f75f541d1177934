import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { isPublicAddress } from '../../toolkit/public-address.ts';

const UPDATE = 'app.svc.actor.updateProfile';
const PROFILE = 'app.svc.actor.getProfile';
/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** A picture host on loopback: what each path answers, and every path asked for. */
function pictureHost() {
  const asked: string[] = [];
  const server = http.createServer((request, response) => {
    asked.push(request.url!);
    const route: Record<string, () => void> = {
      '/me.png': () => response.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
      // Declares an image, is a page with script: the bytes decide.
      '/page.png': () => response.writeHead(200, { 'content-type': 'image/png' }).end('<html><script>alert(1)</script></html>'),
      '/huge.png': () => response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)])),
      '/moved': () => response.writeHead(302, { location: '/me.png' }).end(),
      '/loop': () => response.writeHead(302, { location: '/loop' }).end(),
    };
    (route[request.url!] ?? (() => response.writeHead(404).end()))();
  });
  return {
    asked,
    url: (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

test('public addresses: private, loopback, link-local and reserved ranges are not, in either family', () => {
  for (const address of ['8.8.8.8', '151.101.1.69', '2606:4700::1111']) assert.equal(isPublicAddress(address), true, address);
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    'not an address',
  ]) {
    assert.equal(isPublicAddress(address), false, address);
  }
});

const host = pictureHost();
before(() => host.start());
after(() => host.stop());

describeWithApp(
  'avatars kept by Earshot',
  (app) => {
    test('the picture is fetched once and served from /avatars/<id>; profiles point there, not at the host given', async () => {
      const { token, did } = await app().signup('ava');
      const before = host.asked.length;
      const updated = await app().procedure(UPDATE, { avatar: host.url('/me.png') }, token);
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      const { userId } = await app().ctx.db.selectFrom('users').select('id as userId').where('did', '=', did).executeTakeFirstOrThrow();
      assert.match(updated.body.avatar, new RegExp(`^${app().ctx.config.publicUrl}/avatars/${userId}\\?v=[\\w-]{16}$`));
      for (let i = 0; i < 3; i++) assert.equal((await app().query(PROFILE, { did: 'ava' })).body.avatar, updated.body.avatar);
      const served = await fetch(`${app().apiUrl}/avatars/${userId}`);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'image/png');
      assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);
      assert.equal((await fetch(`${app().apiUrl}/avatars/${userId}`, { headers: { 'if-none-match': served.headers.get('etag')! } })).status, 304);
      // The settings form saves the avatar URL it was shown: nothing is fetched again.
      assert.equal((await app().procedure(UPDATE, { avatar: updated.body.avatar, displayName: 'Ava' }, token)).body.avatar, updated.body.avatar);
      assert.deepEqual(host.asked.slice(before), ['/me.png']);

      const cleared = await app().procedure(UPDATE, { avatar: null }, token);
      assert.equal(cleared.body.avatar, undefined);
      assert.equal((await fetch(`${app().apiUrl}/avatars/${userId}`)).status, 404);
    });

    test('a redirect is followed to the picture; a URL that gives no picture is 400 with the reason and keeps the old one', async () => {
      const { token } = await app().signup('bo');
      const kept = (await app().procedure(UPDATE, { avatar: host.url('/moved') }, token)).body.avatar;
      assert.match(kept, /\/avatars\//);
      const cases: [string, RegExp][] = [
        [host.url('/page.png'), /does not give a JPEG, PNG, GIF, WebP or AVIF picture/],
        [host.url('/gone.png'), /answered HTTP 404/],
        [host.url('/huge.png'), /larger than 2 MiB/],
        [host.url('/loop'), /more than 3 redirects/],
        ['http://no-such-host.invalid/me.png', /host name is not known/],
      ];
      for (const [avatar, message] of cases) {
        const result = await app().procedure(UPDATE, { avatar }, token);
        assert.equal(result.status, 400, avatar);
        assert.equal(result.body.error, 'InvalidRequest');
        assert.match(result.body.message, message, avatar);
      }
      assert.equal((await app().query(PROFILE, { did: 'bo' })).body.avatar, kept);
    });

    test('the avatar route: an unknown or malformed id is a JSON 404', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
        const answer = await app().request('GET', `/avatars/${id}`);
        assert.deepEqual([answer.status, answer.body.error], [404, 'NotFound']);
      }
    });
  },
  { avatarPrivateAddresses: true },
);

describeWithApp('avatars: private addresses refused by default', (app) => {
  test('a loopback or private host is never contacted (by name or literal, IPv4 or IPv6)', async () => {
    const { token } = await app().signup('cy');
    const before = host.asked.length;
    const port = new URL(host.url('/')).port;
    for (const avatar of [host.url('/me.png'), `http://localhost:${port}/me.png`, `http://[::1]:${port}/me.png`, 'http://169.254.169.254/latest/meta-data']) {
      const result = await app().procedure(UPDATE, { avatar }, token);
      assert.equal(result.status, 400, avatar);
      assert.match(result.body.message, /not (on )?a public address/, avatar);
    }
    assert.equal(host.asked.length, before);
  });
});
