import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCredentialName, isCredentialValue, redactUrl } from './redact.ts';

const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkaWQ6cGxjOmFiYyJ9.c2lnbmF0dXJlc2lnbmF0dXJlc2ln';
const API_KEY = '0123456789abcdef0123456789abcdef';

test('credential query parameters of every protocol are masked in logged URLs', () => {
  assert.equal(redactUrl('/1/validate-token?token=abc123'), '/1/validate-token?token=***');
  assert.equal(redactUrl('/?hs=true&u=alice&t=1&a=deadbeef'), '/?hs=true&u=alice&t=***&a=***');
  assert.equal(redactUrl('/2.0/?method=x&api_sig=s&sk=k'), '/2.0/?method=x&api_sig=***&sk=***');
  assert.equal(redactUrl(`/xrpc/app.svc.feed.getFeed?access_token=${JWT}&limit=5`), '/xrpc/app.svc.feed.getFeed?access_token=***&limit=5');
  assert.equal(redactUrl('/rest/ping.view?u=alice&p=enc:6869&v=1.16.1&c=app'), '/rest/ping.view?u=alice&p=***&v=1.16.1&c=app');
  assert.equal(redactUrl('/rest/ping.view?u=alice&t=26719a1196d2a940705a59634eb18eab&s=c19b2d'), '/rest/ping.view?u=alice&t=***&s=***');
  assert.equal(
    redactUrl('/providers/filehostA/callback?state=n0nce.s1gnature&code=4/0Ab&scope=drive'),
    '/providers/filehostA/callback?state=***&code=***&scope=drive',
  );
});

test('credential-like names are recognised in any spelling', () => {
  for (const name of [
    'token',
    'access_token',
    'refreshToken',
    'api_key',
    'apiKey',
    'APIKEY',
    'secret',
    'client_secret',
    'password',
    'passwd',
    'api_sig',
    'signature',
    'auth',
    'authorization',
    'session',
    'sessionKey',
    'sk',
    'code',
    'state',
    'jwt',
  ]) {
    assert.ok(isCredentialName(name), name);
  }
  for (const name of ['limit', 'cursor', 'feed', 'author', 'keyword', 'artist', 'method', 'format', 'did', 'u', 'v', 'c', 'hs', 'filter', 'title']) {
    assert.ok(!isCredentialName(name), name);
  }
});

test('credential-shaped values are masked whatever their parameter is called', () => {
  assert.equal(redactUrl(`/xrpc/x?whatever=${JWT}`), '/xrpc/x?whatever=***');
  assert.equal(redactUrl(`/api/auth/?x=${API_KEY}`), '/api/auth/?x=***');
  assert.equal(redactUrl('/x?q=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWpr'), '/x?q=***');
  for (const value of [
    JWT,
    API_KEY,
    API_KEY.toUpperCase(),
    'a'.repeat(64).replace(/a/g, (_, i: number) => '0123456789abcdef'[i % 16]!),
    'dGhpcyBpcyBhIHJhbmRvbSB0b2tlbiAxMjM0NTY3ODk=',
  ]) {
    assert.ok(isCredentialValue(value), value);
  }
  for (const value of [
    'Daft Punk',
    '98255a8c-017a-4bc7-8dd6-1fa36124572b',
    'USQX91300108',
    '2025-01-01',
    'earshot:feed:recent',
    'supercalifragilisticexpialidocious',
    'www.example.com',
    '1700000000',
  ]) {
    assert.ok(!isCredentialValue(value), value);
  }
});

test('URLs without secrets are unchanged', () => {
  assert.equal(redactUrl('/xrpc/app.svc.feed.getFeed'), '/xrpc/app.svc.feed.getFeed');
  assert.equal(redactUrl('/xrpc/app.svc.song.getSongs?limit=5'), '/xrpc/app.svc.song.getSongs?limit=5');
  assert.equal(
    redactUrl('/xrpc/app.svc.song.getSongs?mbid=98255a8c-017a-4bc7-8dd6-1fa36124572b&genre=disco'),
    '/xrpc/app.svc.song.getSongs?mbid=98255a8c-017a-4bc7-8dd6-1fa36124572b&genre=disco',
  );
});
