import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from 'listenbrainz';
import { describeWithApp } from '../../app/testing.ts';

const RELEASE = 'bf9e91ea-8029-4a04-a26a-224e00a83266';

// A third-party ListenBrainz client from npm, pointed at the scrobbler host instead of api.listenbrainz.org.
// A real client's round trips: submits and reads run on both backends in the ListenBrainz route suites.
describeWithApp(
  'ListenBrainz npm client against the scrobbler host',
  (app) => {
    test('submits single, playing_now and import listens with an API key, and reads them back', async () => {
      const { token } = await app().signup('lb-client');
      const { body } = await app().procedure('app.svc.apikey.createApikey', { name: 'listenbrainz npm' }, token);
      const client = new Client(body.key, `${app().scrobblerUrl}/`);
      const track = (title: string) => ({ artist_name: 'Portishead', track_name: title, release_name: 'Dummy', release_mbid: RELEASE });

      assert.deepEqual(await client.submitListen({ listen_type: 'playing_now', payload: [{ track_metadata: track('Roads') }] }), { status: 200 });
      assert.deepEqual(await client.submitListen({ listen_type: 'single', payload: [{ listened_at: 1_700_000_000, track_metadata: track('Roads') }] }), {
        status: 200,
      });
      const imported = ['Mysterons', 'Sour Times'].map((title, i) => ({ listened_at: 1_600_000_000 + i * 300, track_metadata: track(title) }));
      assert.deepEqual(await client.submitListen({ listen_type: 'import', payload: imported }), { status: 200 });

      const listens = await client.getUserListens('lb-client');
      assert.equal(listens?.data.count, 3);
      assert.deepEqual(
        listens?.data.listens.map((listen) => [listen.artist_name, listen.track_name]),
        [
          ['Portishead', 'Roads'],
          ['Portishead', 'Sour Times'],
          ['Portishead', 'Mysterons'],
        ],
      );
    });

    test('reads the latest import an importer stored (the client has no min_ts/max_ts or stats calls)', async () => {
      const { token } = await app().signup('lb-client-import');
      const { body } = await app().procedure('app.svc.apikey.createApikey', { name: 'importer' }, token);
      const client = new Client(body.key, `${app().scrobblerUrl}/`);
      assert.deepEqual((await client.getLatestImport('lb-client-import'))?.data, { musicbrainz_id: 'lb-client-import', latest_import: 0 });
      const stored = await fetch(`${app().scrobblerUrl}/1/latest-import`, {
        method: 'POST',
        headers: { authorization: `Token ${body.key}` },
        body: JSON.stringify({ ts: 1_700_000_000 }),
      });
      assert.equal(stored.status, 200);
      assert.equal((await client.getLatestImport('lb-client-import'))?.data.latest_import, 1_700_000_000);
    });

    test('surfaces the server’s ListenBrainz errors', async () => {
      const stranger = new Client('0123456789abcdef0123456789abcdef', `${app().scrobblerUrl}/`);
      const listen = { listened_at: 1_700_000_000, track_metadata: { artist_name: 'Portishead', track_name: 'Roads' } };
      await assert.rejects(stranger.submitListen({ listen_type: 'single', payload: [listen] }), (thrown: unknown) => {
        assert.deepEqual(JSON.parse(thrown as string), { code: 401, error: 'Invalid authorization token.' });
        return true;
      });
    });
  },
  {},
  { storage: 'one' },
);
