import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeWithApp } from '../../../app/testing.ts';
import type { AppContext } from '../../context.ts';
import { createCoverArtClient } from '../../providers/coverart/client.ts';
import { startFakeCoverArt } from '../../providers/coverart/fake-testing.ts';
import { createDeezerClient } from '../../providers/deezer/client.ts';
import { startFakeDeezer } from '../../providers/deezer/fake-testing.ts';
import { recordingClock } from '../../providers/fake/clock-testing.ts';
import type { FakeServer } from '../../providers/fake/server.ts';
import { metadataUserAgent, RequestSpacer } from '../../providers/metadata-fetch.ts';
import { createMusicBrainzClient } from '../../providers/musicbrainz/client.ts';
import { startFakeMusicBrainz, type FakeMusicBrainz } from '../../providers/musicbrainz/fake-testing.ts';
import { listenerWithHistory, recordListens, type TestListener } from '../../scrobbling/testing.ts';
import { artistImageUrl } from './artist-images.ts';
import { enrichCatalog, type MetadataClients } from './job.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);

let deezer: FakeServer;
let musicbrainz: FakeMusicBrainz;
let coverart: FakeServer;
before(async () => {
  deezer = await startFakeDeezer([
    // Declared a JPEG, is a PNG: served as what it is.
    { id: 11, name: 'Cocteau Twins', nbFan: 400, picture: { contentType: 'image/jpeg', data: PNG } },
    { id: 12, name: 'Cocteau Twins Tribute', nbFan: 9000, picture: { contentType: 'image/jpeg', data: JPEG } },
    { id: 13, name: 'Mazzy Star', picture: { contentType: 'image/jpeg', data: JPEG } },
    { id: 14, name: 'Galaxie 500', picture: { contentType: 'image/jpeg', data: JPEG } },
    { id: 15, name: 'Low', picture: { contentType: 'image/jpeg', data: JPEG } },
    { id: 16, name: 'Spacemen 3' },
  ]);
  // Nothing is known there: these songs are enriched (or not) by Deezer alone.
  musicbrainz = await startFakeMusicBrainz({});
  // No album is found at MusicBrainz, so no cover is asked for; the clients come as a set.
  coverart = await startFakeCoverArt({});
});
after(async () => {
  await deezer.close();
  await musicbrainz.close();
  await coverart.close();
});

describeWithApp('artist pictures from a fake Deezer, kept and served by Earshot', (app) => {
  let admin: TestListener;
  let clients: MetadataClients;
  before(async () => {
    admin = await listenerWithHistory(app(), 'curator');
    const userAgent = metadataUserAgent('mailto:admin@example.org');
    clients = {
      musicbrainz: createMusicBrainzClient({ baseUrl: musicbrainz.url, userAgent, spacer: new RequestSpacer(1_000, recordingClock()) }),
      coverart: createCoverArtClient({ baseUrl: coverart.url, userAgent }),
      deezer: createDeezerClient({ baseUrl: deezer.url, userAgent, spacer: new RequestSpacer(0) }),
    };
  });

  const enabled = (ctx: AppContext): AppContext => ({ ...ctx, config: { ...ctx.config, enrichment: { ...ctx.config.enrichment, enabled: true } } });
  const enrich = (withClients: MetadataClients = clients) => enrichCatalog(enabled(app().ctx), { clients: withClients });
  const artist = (name: string) => app().ctx.db.selectFrom('artists').select(['id', 'picture']).where('name', '=', name).executeTakeFirstOrThrow();

  test('Deezer off (no client) leaves artists without a picture alone and asks nothing', async () => {
    await recordListens(app(), admin, [{ at: '2024-03-01T10:00:00Z', artist: 'Cocteau Twins', title: 'Heaven or Las Vegas' }]);
    const asked = deezer.requests.length;
    await enrich({ musicbrainz: clients.musicbrainz, coverart: clients.coverart });
    assert.equal((await artist('Cocteau Twins')).picture, null);
    assert.equal(deezer.requests.length, asked);
    // Tried with nothing to do for it: due again in 30 days, so forget it for the next test.
    await app().ctx.db.deleteFrom('enrichment_attempts').execute();
  });

  test('an artist without a picture gets Earshot’s URL for the exact namesake’s picture, served with the type its bytes are', async () => {
    await enrich();
    const { id, picture } = await artist('Cocteau Twins');
    assert.equal(picture, artistImageUrl(app().ctx.config.publicUrl, id));
    const served = await fetch(`${app().apiUrl}/artist-images/${id}`);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.match(served.headers.get('cache-control') ?? '', /max-age=\d+/);
    assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG, 'the exact namesake, not the one with more fans');
    const again = await fetch(`${app().apiUrl}/artist-images/${id}`, { headers: { 'if-none-match': served.headers.get('etag')! } });
    assert.equal(again.status, 304);
    const page = await app().query('app.svc.artist.getArtist', { id });
    assert.equal(page.body.artist.picture, picture, 'the artist page shows it');
  });

  test('a placeholder or no namesake at Deezer is no picture; an unknown id or a non-id is 404 at /artist-images/', async () => {
    await recordListens(app(), admin, [
      { at: '2024-03-02T10:00:00Z', artist: 'Spacemen 3', title: 'Revolution' },
      { at: '2024-03-02T11:00:00Z', artist: 'Slowdive', title: 'Alison' },
    ]);
    await enrich();
    for (const name of ['Spacemen 3', 'Slowdive']) {
      const { id, picture } = await artist(name);
      assert.equal(picture, null, name);
      assert.equal((await fetch(`${app().apiUrl}/artist-images/${id}`)).status, 404);
    }
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      const answer = await fetch(`${app().apiUrl}/artist-images/${id}`);
      assert.equal(answer.status, 404);
      assert.equal(((await answer.json()) as { error: string }).error, 'NotFound');
    }
  });

  test('a picture an admin set, or cleared on purpose, is left as the admin decided', async () => {
    await recordListens(app(), admin, [
      { at: '2024-03-03T10:00:00Z', artist: 'Mazzy Star', title: 'Fade Into You' },
      { at: '2024-03-03T11:00:00Z', artist: 'Galaxie 500', title: 'Tugboat' },
    ]);
    const mazzy = await artist('Mazzy Star');
    const galaxie = await artist('Galaxie 500');
    const edits = [
      { id: mazzy.id, picture: 'https://pictures.example/mazzy.jpg' },
      { id: galaxie.id, picture: 'https://pictures.example/galaxie.jpg' },
      { id: galaxie.id, picture: null },
    ];
    for (const input of edits) assert.equal((await app().procedure('app.svc.artist.updateArtist', input, admin.token)).status, 200);
    const asked = deezer.requests.length;
    await enrich();
    assert.equal((await artist('Mazzy Star')).picture, 'https://pictures.example/mazzy.jpg');
    assert.equal((await artist('Galaxie 500')).picture, null);
    assert.ok(!deezer.requests.slice(asked).some((request) => request.includes('Galaxie')), 'Deezer not asked for an artist whose picture an admin cleared');
  });

  test('Deezer refusing (its quota) ends the run, and the artist is retried later', async () => {
    await recordListens(app(), admin, [{ at: '2024-03-04T10:00:00Z', artist: 'Low', title: 'Words' }]);
    deezer.failNext({ status: 200, body: { error: { type: 'Exception', message: 'Quota limit exceeded', code: 4 } } }, '/search/');
    await assert.rejects(enrich(), /Quota limit exceeded/);
    const low = await artist('Low');
    assert.equal(low.picture, null);
    const attempt = await app().ctx.db.selectFrom('enrichment_attempts').select('outcome').where('entry_id', '=', low.id).executeTakeFirstOrThrow();
    assert.equal(attempt.outcome, 'failed');
  });

  test('merging an artist whose picture was kept into another works; its kept picture goes with it', async () => {
    const low = await artist('Low');
    await app().ctx.db.deleteFrom('enrichment_attempts').where('entry_id', '=', low.id).execute();
    await enrich();
    assert.equal((await artist('Low')).picture, artistImageUrl(app().ctx.config.publicUrl, low.id));
    const into = await artist('Cocteau Twins');
    const merged = await app().procedure('app.svc.artist.mergeArtists', { from: low.id, into: into.id }, admin.token);
    assert.equal(merged.status, 200);
    assert.equal((await fetch(`${app().apiUrl}/artist-images/${low.id}`)).status, 404);
    assert.equal((await fetch(`${app().apiUrl}/artist-images/${into.id}`)).status, 200, "the survivor's own picture stays");
  });
});
