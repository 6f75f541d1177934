import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp } from '../../app/testing.ts';

// What the server says of itself: nothing stored.
describeWithApp(
  'server info',
  (app) => {
    test('getInfo answers the configured public URLs to anyone', async () => {
      const info = await app().query('app.svc.server.getInfo');
      assert.equal(info.status, 200);
      assert.deepEqual(info.body, { apiUrl: 'https://music.example.com', scrobblerUrl: 'https://scrobble.example.com' });
    });
  },
  { publicUrl: 'https://music.example.com', scrobblerPublicUrl: 'https://scrobble.example.com' },
  { storage: 'one' },
);
