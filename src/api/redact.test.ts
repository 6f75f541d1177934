import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactUrl } from './redact.ts';

test('credential query parameters are masked in logged URLs', () => {
  assert.equal(redactUrl('/1/validate-token?token=abc123'), '/1/validate-token?token=***');
  assert.equal(redactUrl('/?hs=true&u=alice&t=1&a=deadbeef'), '/?hs=true&u=alice&t=1&a=***');
  assert.equal(redactUrl('/2.0/?method=x&api_sig=s&sk=k'), '/2.0/?method=x&api_sig=***&sk=***');
});

test('URLs without secrets are unchanged', () => {
  assert.equal(redactUrl('/xrpc/app.svc.feed.getFeed'), '/xrpc/app.svc.feed.getFeed');
  assert.equal(redactUrl('/xrpc/app.svc.song.getSongs?limit=5'), '/xrpc/app.svc.song.getSongs?limit=5');
});
