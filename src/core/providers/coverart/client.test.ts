import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FakeServer } from '../fake/server.ts';
import { ProviderError } from '../errors.ts';
import { metadataUserAgent } from '../metadata-fetch.ts';
import { createCoverArtClient } from './client.ts';
import { startFakeCoverArt } from './fake-testing.ts';

const RELEASE = 'b52a8f31-b5ab-34e9-92f4-f5b7110220f0';
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);

describe('Cover Art Archive client against the fake', () => {
  let fake: FakeServer;
  before(async () => {
    fake = await startFakeCoverArt({ [RELEASE]: { contentType: 'image/jpeg', data: JPEG } });
  });
  after(() => fake.close());
  const client = () => createCoverArtClient({ baseUrl: fake.url, userAgent: metadataUserAgent('mailto:admin@example.org') });

  test('the front cover follows the redirect to the image; a release without one is null', async () => {
    assert.deepEqual(await client().frontCover(RELEASE), { contentType: 'image/jpeg', data: JPEG });
    assert.deepEqual(fake.requests.slice(0, 2), [`GET /release/${RELEASE}/front-250`, `GET /images/${RELEASE}-250`]);
    assert.equal(await client().frontCover('00000000-0000-4000-8000-000000000000'), null);
  });

  test('an answer that is not an image is Unavailable, not stored as a cover', async () => {
    fake.failNext({ status: 200, body: { not: 'an image' } }, '/release/');
    const error = await client()
      .frontCover(RELEASE)
      .catch((caught: unknown) => caught);
    assert.ok(error instanceof ProviderError && error.failure === 'Unavailable' && error.provider === 'coverart');
  });
});

describe('Cover Art Archive client: the bytes, not the declared type, say what a cover is', () => {
  const HTML_RELEASE = 'b52a8f31-b5ab-34e9-92f4-f5b7110220f1';
  const SVG_RELEASE = 'b52a8f31-b5ab-34e9-92f4-f5b7110220f2';
  const PNG_RELEASE = 'b52a8f31-b5ab-34e9-92f4-f5b7110220f3';
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  let fake: FakeServer;
  before(async () => {
    fake = await startFakeCoverArt({
      [HTML_RELEASE]: { contentType: 'image/jpeg', data: Buffer.from('<html><script>alert(1)</script></html>') },
      [SVG_RELEASE]: { contentType: 'image/svg+xml', data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') },
      [PNG_RELEASE]: { contentType: 'image/jpeg', data: PNG },
    });
  });
  after(() => fake.close());
  const client = () => createCoverArtClient({ baseUrl: fake.url, userAgent: metadataUserAgent('mailto:admin@example.org') });

  test('HTML declared as a JPEG and an SVG are Unavailable; a PNG declared as a JPEG comes back as image/png', async () => {
    for (const release of [HTML_RELEASE, SVG_RELEASE]) {
      const error = await client()
        .frontCover(release)
        .catch((caught: unknown) => caught);
      assert.ok(error instanceof ProviderError && error.failure === 'Unavailable', release);
    }
    assert.deepEqual(await client().frontCover(PNG_RELEASE), { contentType: 'image/png', data: PNG });
  });
});
