import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';
import { lb, lbAs, lbUser } from './listenbrainz-testing.ts';

describeWithApp('ListenBrainz latest-import', (app) => {
  test('0 until set; set with the token per service, lastfm by default; it only moves forward', async () => {
    const user = await lbUser(app(), 'lb-latest');
    const read = async (query = '') => (await lb(app(), 'GET', `/latest-import?user_name=${user.handle}${query}`)).body;
    assert.deepEqual(await read(), { musicbrainz_id: user.handle, latest_import: 0 });

    assert.deepEqual((await lbAs(app(), user, 'POST', '/latest-import', { ts: 1_700_000_000 })).body, { status: 'ok' });
    assert.equal((await read()).latest_import, 1_700_000_000);
    assert.equal((await read('&service=lastfm')).latest_import, 1_700_000_000);
    assert.equal((await read('&service=spotify')).latest_import, 0);

    await lbAs(app(), user, 'POST', '/latest-import', { ts: '1600000000' });
    assert.equal((await read()).latest_import, 1_700_000_000, 'an older timestamp changes nothing');
    await lbAs(app(), user, 'POST', '/latest-import', { ts: 1_750_000_000, service: 'ListenBrainz' });
    assert.equal((await read('&service=listenbrainz')).latest_import, 1_750_000_000);
    assert.equal((await read()).latest_import, 1_700_000_000);
  });

  test('refusals in ListenBrainz’s shapes', async () => {
    const user = await lbUser(app(), 'lb-latest-bad');
    const unknownService = await lb(app(), 'GET', `/latest-import?user_name=${user.handle}&service=napster`);
    assert.deepEqual([unknownService.status, unknownService.body], [404, { code: 404, error: 'Service does not exist: napster' }]);
    const nobody = await lb(app(), 'GET', '/latest-import?user_name=nobody');
    assert.deepEqual([nobody.status, nobody.body], [404, { code: 404, error: 'Cannot find user: nobody' }]);
    assert.equal((await lb(app(), 'GET', '/latest-import')).status, 404);
    for (const body of [{ ts: 'yesterday' }, { ts: -5 }, ['ts'], '{"ts": ']) {
      const result = await lbAs(app(), user, 'POST', '/latest-import', body);
      assert.equal(result.status, 400, JSON.stringify(body));
      assert.equal(result.body.code, 400);
    }
    assert.equal((await lbAs(app(), user, 'POST', '/latest-import', { ts: 1, service: 'napster' })).status, 404);
    const anonymous = await lb(app(), 'POST', '/latest-import', { body: { ts: 1_700_000_000 } });
    assert.deepEqual([anonymous.status, anonymous.body], [401, { code: 401, error: 'You need to provide an Authorization header.' }]);
  });
});
