import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ProviderError } from '../errors.ts';
import type { FakeServer } from '../fake/server.ts';
import { metadataUserAgent, RequestSpacer } from '../metadata-fetch.ts';
import { createDeezerClient } from './client.ts';
import { startFakeDeezer } from './fake-testing.ts';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
/** The tests' folding: the catalog's (normalize.ts) is handed in the same way by enrichment. */
const nameKey = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

describe('Deezer client against the fake', () => {
  let fake: FakeServer;
  before(async () => {
    fake = await startFakeDeezer([
      { id: 1, name: 'Slowdive', nbFan: 500, picture: { contentType: 'image/jpeg', data: JPEG } },
      { id: 2, name: 'Slowdive Tribute', nbFan: 9000, picture: { contentType: 'image/png', data: PNG } },
      { id: 3, name: 'Lushlife', nbFan: 100, picture: { contentType: 'image/png', data: PNG } },
      { id: 4, name: 'Ride', nbFan: 300 },
      { id: 5, name: 'Pale Saints', picture: { contentType: 'image/jpeg', data: Buffer.from('<html><script>alert(1)</script></html>') } },
      { id: 6, name: 'Swervedriver', picture: { contentType: 'image/jpeg', data: PNG } },
    ]);
  });
  after(() => fake.close());
  const client = () => createDeezerClient({ baseUrl: fake.url, userAgent: metadataUserAgent('mailto:admin@example.org'), spacer: new RequestSpacer(0) });

  test('the artist whose folded name is the same is taken, even when a namesake has more fans; its largest picture is downloaded', async () => {
    assert.deepEqual(await client().artistImage('SLOWDIVE', nameKey), { deezerId: '1', contentType: 'image/jpeg', data: JPEG });
    assert.deepEqual(fake.requests.slice(-2), [
      'GET /search/artist?q=SLOWDIVE&limit=10',
      `GET /images/artist/${'1'.padStart(32, '0')}/1000x1000-000000-80-0-0.jpg`,
    ]);
  });

  test('only near matches found is null: nothing is guessed', async () => {
    assert.equal(await client().artistImage('Lush', nameKey), null);
    assert.equal(await client().artistImage('Nobody Here', nameKey), null);
    assert.ok(!fake.requests.some((request) => request.includes('/images/') && request.includes('3'.padStart(32, '0'))));
  });

  test("Deezer's placeholder (an empty hash) counts as no picture and is not downloaded", async () => {
    const asked = fake.requests.length;
    assert.equal(await client().artistImage('Ride', nameKey), null);
    assert.deepEqual(fake.requests.slice(asked), ['GET /search/artist?q=Ride&limit=10']);
  });

  test('the type is the one the bytes are; bytes that are no image are refused', async () => {
    assert.deepEqual(await client().artistImage('Swervedriver', nameKey), { deezerId: '6', contentType: 'image/png', data: PNG });
    const error = await client()
      .artistImage('Pale Saints', nameKey)
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof ProviderError && error.failure === 'Unavailable' && error.provider === 'deezer', String(error));
  });

  test('a quota error (HTTP 200 with an error object) is RateLimited, other errors are not an empty answer', async () => {
    fake.failNext({ status: 200, body: { error: { type: 'Exception', message: 'Quota limit exceeded', code: 4 } } }, '/search/');
    const quota = await client()
      .artistImage('Slowdive', nameKey)
      .catch((caught: unknown) => caught);
    assert.ok(quota instanceof ProviderError && quota.failure === 'RateLimited' && /Quota limit exceeded/.test(quota.message), String(quota));
    fake.failNext({ status: 200, body: { error: { type: 'ParameterException', message: 'Wrong parameter', code: 500 } } }, '/search/');
    const refused = await client()
      .artistImage('Slowdive', nameKey)
      .catch((caught: unknown) => caught);
    assert.ok(refused instanceof ProviderError && refused.failure === 'Refused', String(refused));
  });
});
