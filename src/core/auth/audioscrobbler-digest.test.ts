import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { describeWithApp, jsonRequest, type TestApp } from '../../app/testing.ts';
import { createClientAccount, type ClientAccount } from '../../adapters/lastfm/lastfm-testing.ts';
import { sealLegacyAudioscrobblerDigests } from './audioscrobbler-digest.ts';

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

async function handshake(app: TestApp, account: ClientAccount): Promise<string> {
  const t = String(Math.floor(Date.now() / 1000));
  const params = new URLSearchParams({ hs: 'true', p: '1.2', c: 'tst', v: '1', u: account.handle, t, a: md5(md5(account.key) + t) });
  return (await jsonRequest<string>(`${app.scrobblerUrl}/?${params}`, 'GET')).body.split('\n')[0]!;
}

const storedDigest = async (app: TestApp, account: ClientAccount) =>
  (await app.ctx.db.selectFrom('api_keys').select('audioscrobbler_digest').where('id', '=', account.apiKeyId).executeTakeFirstOrThrow()).audioscrobbler_digest!;

describeWithApp('Audioscrobbler digests at rest', (app) => {
  test('the stored digest is sealed, not md5(key), and the handshake still works', async () => {
    const account = await createClientAccount(app(), 'digest-new');
    const stored = await storedDigest(app(), account);
    assert.ok(!stored.includes(md5(account.key)));
    assert.match(stored, /^v1:/);
    assert.equal(await handshake(app(), account), 'OK');
  });

  test('a plaintext digest from before sealing still works, and is sealed at start-up', async () => {
    const account = await createClientAccount(app(), 'digest-legacy');
    await app()
      .ctx.db.updateTable('api_keys')
      .set({ audioscrobbler_digest: md5(account.key) })
      .where('id', '=', account.apiKeyId)
      .execute();
    assert.equal(await handshake(app(), account), 'OK');

    assert.ok((await sealLegacyAudioscrobblerDigests(app().ctx.db, app().ctx.keys.encryption)) >= 1);
    const stored = await storedDigest(app(), account);
    assert.match(stored, /^v1:/);
    assert.ok(!stored.includes(md5(account.key)));
    assert.equal(await handshake(app(), account), 'OK');
    assert.equal(await sealLegacyAudioscrobblerDigests(app().ctx.db, app().ctx.keys.encryption), 0);
  });
});
