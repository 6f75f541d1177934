import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { currentNowPlaying, ingestListens, updateNowPlaying } from './ingest.ts';

async function userId(app: TestApp, handle: string): Promise<string> {
  const { did } = await app.signup(handle);
  return (await app.ctx.db.selectFrom('users').select('id').where('did', '=', did).executeTakeFirstOrThrow()).id;
}

const at = (iso: string) => new Date(iso);

describeWithApp('ingest', (app) => {
  test('spelling variants of one track resolve to one catalog entry', async () => {
    const user = await userId(app(), 'ingest-variants');
    const outcomes = await ingestListens(
      app().ctx,
      user,
      [
        { artist: 'Daft Punk', title: 'Get Lucky', album: 'Random Access Memories', listenedAt: at('2025-01-01T10:00:00Z') },
        { artist: 'daft punk feat. Pharrell Williams', title: 'Get Lucky (feat. Pharrell Williams)', listenedAt: at('2025-01-01T11:00:00Z') },
        { artist: '  DAFT   PUNK ', title: 'get lucky', album: 'random access memories', listenedAt: at('2025-01-01T12:00:00Z') },
      ],
      'test',
    );
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['stored', 'stored', 'stored'],
    );
    const trackIds = new Set(outcomes.map((o) => (o.status === 'ignored' ? null : o.trackId)));
    assert.equal(trackIds.size, 1);
    assert.deepEqual(
      outcomes.map((o) => o.status !== 'ignored' && o.matched),
      [false, true, true],
    );
  });

  test('MBID and ISRC match before names', async () => {
    const user = await userId(app(), 'ingest-ids');
    const mbid = '11111111-2222-4333-8444-555555555555';
    const [first] = await ingestListens(
      app().ctx,
      user,
      [{ artist: 'A', title: 'One', mbid, isrc: 'usrc17607839', listenedAt: at('2025-02-01T00:00:00Z') }],
      'test',
    );
    const [byMbid, byIsrc] = await ingestListens(
      app().ctx,
      user,
      [
        { artist: 'Someone Else', title: 'Renamed', mbid, listenedAt: at('2025-02-02T00:00:00Z') },
        { artist: 'Another', title: 'Other', isrc: 'USRC17607839', listenedAt: at('2025-02-03T00:00:00Z') },
      ],
      'test',
    );
    assert.ok(first && first.status === 'stored' && byMbid?.status === 'stored' && byIsrc?.status === 'stored');
    assert.equal(byMbid.trackId, first.trackId);
    assert.equal(byIsrc.trackId, first.trackId);
  });

  test('a repeated listen (same user, track, time) is a duplicate, stored once', async () => {
    const user = await userId(app(), 'ingest-dupes');
    const listen = { artist: 'B', title: 'Two', listenedAt: at('2025-03-01T00:00:00Z') };
    const [first] = await ingestListens(app().ctx, user, [listen], 'test');
    const [second, third] = await ingestListens(app().ctx, user, [listen, { ...listen, artist: 'b' }], 'test');
    assert.equal(first?.status, 'stored');
    assert.equal(second?.status, 'duplicate');
    assert.equal(third?.status, 'duplicate');
    assert.ok(first?.status === 'stored' && second?.status === 'duplicate');
    assert.equal(second.scrobbleId, first.scrobbleId);
    const count = await app()
      .ctx.db.selectFrom('scrobbles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user)
      .executeTakeFirstOrThrow();
    assert.equal(count.n, 1);
  });

  test('the submitted payload is kept verbatim and later submissions fill catalog gaps', async () => {
    const user = await userId(app(), 'ingest-enrich');
    const [first] = await ingestListens(
      app().ctx,
      user,
      [{ artist: 'C', title: 'Three', listenedAt: at('2025-04-01T00:00:00Z'), submitted: { client: 'x', extra: [1, 2] } }],
      'test',
    );
    await ingestListens(app().ctx, user, [{ artist: 'C', title: 'Three', durationMs: 180000, listenedAt: at('2025-04-02T00:00:00Z') }], 'test');
    assert.ok(first?.status === 'stored');
    const scrobble = await app().ctx.db.selectFrom('scrobbles').select(['submitted', 'source']).where('id', '=', first.scrobbleId).executeTakeFirstOrThrow();
    assert.deepEqual(scrobble, { submitted: { client: 'x', extra: [1, 2] }, source: 'test' });
    const track = await app().ctx.db.selectFrom('tracks').select('duration').where('id', '=', first.trackId).executeTakeFirstOrThrow();
    assert.equal(track.duration, 180000);
  });

  test('a batch larger than one matching chunk: known tracks fill their gaps, new ones are created once', async () => {
    const user = await userId(app(), 'ingest-batch');
    const titles = Array.from({ length: 30 }, (_, i) => `Batch ${i}`);
    const known = await ingestListens(
      app().ctx,
      user,
      titles.slice(0, 25).map((title, i) => ({ artist: 'G', title, listenedAt: new Date(Date.UTC(2025, 6, 1, 0, i)) })),
      'test',
    );
    const again = await ingestListens(
      app().ctx,
      user,
      titles.map((title, i) => ({ artist: 'G', title, durationMs: 1000 + i, genre: 'folk', listenedAt: new Date(Date.UTC(2025, 6, 2, 0, i)) })),
      'test',
    );
    assert.deepEqual(
      again.slice(0, 25).map((outcome) => outcome.status === 'stored' && outcome.matched && outcome.trackId),
      known.map((outcome) => outcome.status === 'stored' && outcome.trackId),
    );
    assert.ok(again.slice(25).every((outcome) => outcome.status === 'stored' && !outcome.matched));
    const tracks = await app().ctx.db.selectFrom('tracks').select(['title', 'duration', 'genre']).where('artist', '=', 'G').orderBy('duration').execute();
    assert.deepEqual(
      tracks,
      titles.map((title, i) => ({ title, duration: 1000 + i, genre: 'folk' })),
    );
  });

  test('empty artist or title is ignored with a reason, without touching the rest of the batch', async () => {
    const user = await userId(app(), 'ingest-invalid');
    const outcomes = await ingestListens(
      app().ctx,
      user,
      [
        { artist: ' ', title: 'x', listenedAt: at('2025-05-01T00:00:00Z') },
        { artist: 'D', title: 'Four', listenedAt: at('2025-05-01T00:00:00Z') },
      ],
      'test',
    );
    assert.deepEqual(outcomes[0], { status: 'ignored', reason: 'artist is empty' });
    assert.equal(outcomes[1]?.status, 'stored');
  });

  test('now playing is set, replaced, and not history', async () => {
    const user = await userId(app(), 'ingest-now');
    assert.equal(await currentNowPlaying(app().ctx, user), null);
    const first = await updateNowPlaying(app().ctx, user, { artist: 'E', title: 'Five', durationMs: 200000 });
    const second = await updateNowPlaying(app().ctx, user, { artist: 'E', title: 'Six' });
    assert.equal(first.status, 'updated');
    assert.ok(second.status === 'updated');
    assert.equal((await currentNowPlaying(app().ctx, user))?.trackId, second.trackId);
    const history = await app().ctx.db.selectFrom('scrobbles').select('id').where('user_id', '=', user).execute();
    assert.deepEqual(history, []);
  });
});

describeWithApp(
  'ingest with UNMATCHED_SCROBBLES=skip',
  (app) => {
    test('unmatched listens are ignored and reported; matched ones are stored', async () => {
      const user = await userId(app(), 'strict');
      await app().ctx.db.insertInto('artists').values({ name: 'Known', name_key: 'known' }).execute();
      const artist = await app().ctx.db.selectFrom('artists').select('id').executeTakeFirstOrThrow();
      await app().ctx.db.insertInto('tracks').values({ title: 'Song', title_key: 'song', artist: 'Known', artist_id: artist.id }).execute();
      const outcomes = await ingestListens(
        app().ctx,
        user,
        [
          { artist: 'Unknown', title: 'Song', listenedAt: at('2025-06-01T00:00:00Z') },
          { artist: 'known', title: 'SONG', listenedAt: at('2025-06-01T00:00:00Z') },
        ],
        'test',
      );
      assert.deepEqual(outcomes[0], { status: 'ignored', reason: 'no matching track in the catalog' });
      assert.equal(outcomes[1]?.status, 'stored');
      assert.equal((await app().ctx.db.selectFrom('artists').select('id').execute()).length, 1);
      assert.deepEqual(await updateNowPlaying(app().ctx, user, { artist: 'Nobody', title: 'Nothing' }), {
        status: 'ignored',
        reason: 'no matching track in the catalog',
      });
    });
  },
  { unmatchedScrobbles: 'skip' },
);
