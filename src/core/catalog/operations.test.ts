import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ingestListens, type Listen } from '../scrobbling/index.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';

const SONGS = 'app.svc.song.getSongs';
const SONG = 'app.svc.song.getSong';
const LIKE = 'app.svc.song.likeSong';
const UNLIKE = 'app.svc.song.unlikeSong';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface Account {
  id: string;
  did: string;
  handle: string;
  token: string;
}

async function account(app: TestApp, handle: string): Promise<Account> {
  const { did, token } = await app.signup(handle);
  const { id } = await app.ctx.db.selectFrom('users').select('id').where('did', '=', did).executeTakeFirstOrThrow();
  return { id, did, handle, token };
}

/** Plays through the real ingest path; all listens of one call share a transaction, hence one created_at. */
async function play(app: TestApp, user: Account, listens: Array<Partial<Listen> & { title: string; artist: string; at: string }>) {
  const outcomes = await ingestListens(
    app.ctx,
    user.id,
    listens.map(({ at, ...listen }) => ({ ...listen, listenedAt: new Date(at) })),
    'api',
  );
  return outcomes.map((outcome) => (outcome.status === 'ignored' ? assert.fail(outcome.reason) : outcome.trackId));
}

async function songIds(app: TestApp, params: Record<string, string | number>, token?: string): Promise<string[]> {
  const result = await app.query(SONGS, params, token);
  assert.equal(result.status, 200, JSON.stringify(result.body));
  return result.body.tracks.map((track: { id: string }) => track.id);
}

function assertInvalid(result: { status: number; body: { error: string; message?: string } }, message?: RegExp) {
  assert.equal(result.status, 400, JSON.stringify(result.body));
  assert.equal(result.body.error, 'InvalidRequest');
  if (message) assert.match(result.body.message ?? '', message);
}

describeWithApp('catalog reads and likes', (app) => {
  let alice: Account;
  let bob: Account;
  let lucky: string;
  let harder: string;
  let around: string;

  test('an empty catalog answers with empty lists', async () => {
    assert.deepEqual((await app().query(SONGS)).body, { tracks: [] });
    const found = await app().query('app.svc.feed.search', { q: 'anything' });
    assert.deepEqual(found.body, { artists: [], albums: [], songs: [], users: [] });
  });

  test('getSongs shows every Song field, with statistics and likes relative to the caller', async () => {
    alice = await account(app(), 'alice');
    bob = await account(app(), 'bob');
    [lucky, harder] = (await play(app(), alice, [
      {
        title: 'Get Lucky',
        artist: 'Daft Punk',
        album: 'Random Access Memories',
        albumArtist: 'Daft Punk',
        durationMs: 369000,
        trackNumber: 8,
        discNumber: 1,
        mbid: '5d3e7b1c-2f5a-4f53-9e0c-3f0a3a1f6b11',
        isrc: 'usqx91300108',
        spotifyId: '69kOkLUCkxIZYexIgSG8rq',
        tags: ['disco', 'funk'],
        genre: 'Disco',
        albumArt: 'https://img.example/ram.jpg',
        at: '2024-01-01T10:00:00Z',
      },
      { title: 'Harder, Better, Faster, Stronger', artist: 'Daft Punk', album: 'Discovery', at: '2024-01-01T11:00:00Z' },
      { title: 'Get Lucky', artist: 'Daft Punk', album: 'Random Access Memories', at: '2024-01-02T10:00:00Z' },
    ])) as [string, string];
    await play(app(), bob, [{ title: 'Get Lucky', artist: 'Daft Punk', album: 'Random Access Memories', at: '2024-01-03T10:00:00Z' }]);
    [around] = (await play(app(), bob, [
      { title: 'Around the World', artist: 'Daft Punk', album: 'Homework', trackNumber: 7, at: '2024-01-04T10:00:00Z' },
    ])) as [string];
    // Fields no submission protocol carries, set as a catalog editor would.
    await app()
      .ctx.db.updateTable('tracks')
      .set({
        sha256: 'ab'.repeat(32),
        acoustid_fingerprint: 'AQADtE',
        video_link: 'https://video.example/lucky',
        streaming_link_b: 'https://b.example/lucky',
        streaming_link_c: 'https://c.example/lucky',
        lyrics: 'Like the legend of the phoenix',
        composer: 'Thomas Bangalter',
        label: 'Columbia',
        copyright_message: '(P) 2013 Daft Life',
        key: 'F# minor',
        bpm: 116,
      })
      .where('id', '=', lucky)
      .execute();
    assert.equal((await app().procedure(LIKE, { id: lucky }, bob.token)).status, 200);

    const track = await app().ctx.db.selectFrom('tracks').selectAll().where('id', '=', lucky).executeTakeFirstOrThrow();
    const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
    const expected = {
      id: lucky,
      uri: `earshot:song:${lucky}`,
      title: 'Get Lucky',
      artist: 'Daft Punk',
      albumArtist: 'Daft Punk',
      album: 'Random Access Memories',
      albumArt: 'https://img.example/ram.jpg',
      artistUri: `earshot:artist:${track.artist_id}`,
      albumUri: `earshot:album:${track.album_id}`,
      duration: 369000,
      trackNumber: 8,
      discNumber: 1,
      sha256: 'ab'.repeat(32),
      mbid: '5d3e7b1c-2f5a-4f53-9e0c-3f0a3a1f6b11',
      mbId: '5d3e7b1c-2f5a-4f53-9e0c-3f0a3a1f6b11',
      isrc: 'USQX91300108',
      tags: ['disco', 'funk'],
      streamingLinkA: 'https://open.spotify.com/track/69kOkLUCkxIZYexIgSG8rq',
      videoLink: 'https://video.example/lucky',
      streamingLinkB: 'https://b.example/lucky',
      streamingLinkC: 'https://c.example/lucky',
      composer: 'Thomas Bangalter',
      genre: 'Disco',
      label: 'Columbia',
      copyrightMessage: '(P) 2013 Daft Life',
      key: 'F# minor',
      bpm: 116,
      dbVersion: 1,
      liked: false,
      likesCount: 1,
      updatedAt: iso(track.updated_at),
      playCount: 3,
      uniqueListeners: 2,
      lyrics: 'Like the legend of the phoenix',
      acoustidFingerprint: 'AQADtE',
      createdAt: iso(track.created_at),
    };
    const anonymous = await app().query(SONGS, { filter: 'title=="Get Lucky"' });
    assert.deepEqual(anonymous.body, { tracks: [expected] });
    assert.deepEqual((await app().query(SONGS, { filter: 'title=="Get Lucky"' }, alice.token)).body.tracks[0].liked, false);
    assert.deepEqual((await app().query(SONGS, { filter: 'title=="Get Lucky"' }, bob.token)).body.tracks[0], { ...expected, liked: true });

    const sparse = (await app().query(SONG, { id: harder })).body.song;
    assert.deepEqual(Object.keys(sparse).sort(), [
      'album',
      'albumUri',
      'artist',
      'artistUri',
      'createdAt',
      'dbVersion',
      'id',
      'liked',
      'likesCount',
      'playCount',
      'tags',
      'title',
      'uniqueListeners',
      'updatedAt',
      'uri',
    ]);
    assert.equal(sparse.playCount, 1);
  });

  test('getSongs is newest first, ties broken by id, and pages never overlap', async () => {
    const all = await songIds(app(), {});
    assert.equal(all.length, 3);
    assert.equal(all[0], around, 'the newest song first');
    // Get Lucky and Harder were created in one transaction: same created_at, so id decides.
    assert.deepEqual(all.slice(1), [lucky, harder].sort().reverse());
    const pages = [...(await songIds(app(), { limit: 2 })), ...(await songIds(app(), { limit: 2, offset: 2 }))];
    assert.deepEqual(pages, all);
    assert.deepEqual(await songIds(app(), { offset: 3 }), []);
  });

  test('getSongs sorts by title, artist, album, duration or createdAt, either way, songs without the value last', async () => {
    assert.deepEqual(await songIds(app(), { sort: 'title' }), [around, lucky, harder]);
    assert.deepEqual(await songIds(app(), { sort: '-title' }), [harder, lucky, around]);
    assert.deepEqual(await songIds(app(), { sort: '-album' }), [lucky, around, harder]);
    assert.deepEqual(await songIds(app(), { sort: 'duration' }), [lucky, ...[harder, around].sort()]);
    assert.deepEqual(await songIds(app(), { sort: '-duration' }), [lucky, ...[harder, around].sort().reverse()]);
    assert.deepEqual(await songIds(app(), { sort: '-createdAt' }), await songIds(app(), {}));
    assert.deepEqual(await songIds(app(), { sort: 'title', limit: 1, offset: 1 }), [lucky]);
    assert.deepEqual(await songIds(app(), { sort: 'title', filter: 'title==*e*' }), [around, lucky, harder]);
    assertInvalid(await app().query(SONGS, { sort: 'plays' }));
  });

  test('getSongs parameters filter: genre case-insensitively, mbid, isrc, spotifyId, and they combine', async () => {
    assert.deepEqual(await songIds(app(), { genre: 'DISCO' }), [lucky]);
    assert.deepEqual(await songIds(app(), { mbid: '5d3e7b1c-2f5a-4f53-9e0c-3f0a3a1f6b11' }), [lucky]);
    assert.deepEqual(await songIds(app(), { isrc: 'usqx91300108' }), [lucky]);
    assert.deepEqual(await songIds(app(), { spotifyId: '69kOkLUCkxIZYexIgSG8rq' }), [lucky]);
    assert.deepEqual(await songIds(app(), { spotifyId: 'nope' }), []);
    assert.deepEqual(await songIds(app(), { genre: 'disco', filter: 'duration<300000' }), []);
    assert.deepEqual(await songIds(app(), { filter: '  ' }), await songIds(app(), {}), 'a blank filter filters nothing');
  });

  test('RSQL filters run against the catalog', async () => {
    const check = async (filter: string, expected: string[]) => assert.deepEqual((await songIds(app(), { filter })).sort(), [...expected].sort(), filter);
    await check('title==*LUCKY*', [lucky]);
    await check('title==get*', [lucky]);
    await check('title=="get lucky"', [lucky]);
    await check('title!=*lucky*', [harder, around]);
    await check('album!="Discovery"', [lucky, around]);
    await check('album=in=(discovery,homework)', [harder, around]);
    await check('album=out=(discovery)', [lucky, around]);
    await check('trackNumber==7,duration>=369000', [lucky, around]);
    await check('trackNumber=gt=7', [lucky]);
    await check('artist==*punk;title==*world* or title==*harder*', [harder, around]);
    await check('artist==*punk and (title==*world*,title==*harder*)', [harder, around]);
    await check('composer=="Thomas Bangalter"', [lucky]);
    await check('label==columbia', [lucky]);
    await check(`sha256==${'AB'.repeat(32)}`, [lucky]);
    await check('mbid==5d3e7b1c-2f5a-4f53-9e0c-3f0a3a1f6b11', [lucky]);
    await check('mbId==5d3e7b1c-2f5a-4f53-9e0c-3f0a3a1f6b11', [lucky]);
    await check('isrc==USQX91300108', [lucky]);
    await check(`uri==earshot:song:${harder}`, [harder]);
    const { album_id, artist_id } = await app()
      .ctx.db.selectFrom('tracks')
      .select(['album_id', 'artist_id'])
      .where('id', '=', around)
      .executeTakeFirstOrThrow();
    await check(`albumUri==earshot:album:${album_id}`, [around]);
    await check(`artistUri=="earshot:artist:${artist_id}"`, [lucky, harder, around]);
    await check('discNumber==1', [lucky]);
    await check('albumArtist==*daft*', [lucky]);
    const today = new Date().toISOString().slice(0, 10);
    await check(`createdAt==${today}`, [lucky, harder, around]);
    await check(`createdAt<${today}`, []);
    await check('createdAt>=2000-01-01T00:00:00Z', [lucky, harder, around]);
    await check('title==100%', []);
    await check('title==*_*', []);
  });

  test('bad getSongs requests are 400 InvalidRequest naming the problem and where', async () => {
    assertInvalid(await app().query(SONGS, { filter: 'title==' }), /expected a value, found the end of the filter at position 8/);
    assertInvalid(await app().query(SONGS, { filter: 'plays>3' }), /unknown field "plays" at position 1/);
    assertInvalid(await app().query(SONGS, { filter: 'duration>long' }), /duration takes a whole number, found "long" at position 10/);
    assertInvalid(await app().query(SONGS, { filter: 'createdAt>yesterday' }), /ISO 8601/);
    assertInvalid(await app().query(SONGS, { filter: 'title<a' }), /orders numbers and dates/);
    assertInvalid(await app().query(SONGS, { filter: 'x'.repeat(2049) }), /2048/);
    assertInvalid(await app().query(SONGS, { limit: 0 }));
    assertInvalid(await app().query(SONGS, { limit: 101 }));
    assertInvalid(await app().query(SONGS, { offset: -1 }));
    assert.deepEqual(await songIds(app(), { filter: 'title=="x\' or 1=1 --"' }), [], 'an injection attempt is a value');
    assertInvalid(await app().query(SONGS, { filter: 'title==x);drop table tracks' }), /unexpected "\)" at position 9/);
    assert.equal((await songIds(app(), {})).length, 3);
  });

  test('getSong by id or uri; unknown is 404, malformed 400', async () => {
    const byId = await app().query(SONG, { id: lucky }, bob.token);
    assert.equal(byId.body.song.liked, true);
    assert.deepEqual((await app().query(SONG, { uri: `earshot:song:${lucky}` }, bob.token)).body, byId.body);
    const missing = await app().query(SONG, { id: UNKNOWN_ID });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'NotFound');
    assertInvalid(await app().query(SONG, {}), /id or uri/);
    assertInvalid(await app().query(SONG, { id: 'nope' }));
    assertInvalid(await app().query(SONG, { uri: `earshot:album:${lucky}` }));
    assertInvalid(await app().query(SONG, { id: harder, uri: `earshot:song:${lucky}` }), /different/);
  });

  test('likeSong and unlikeSong are idempotent, per user, and need auth', async () => {
    const like = await app().procedure(LIKE, { uri: `earshot:song:${harder}` }, alice.token);
    assert.deepEqual(like.body, { liked: true, likesCount: 1 });
    assert.deepEqual((await app().procedure(LIKE, { id: harder }, alice.token)).body, { liked: true, likesCount: 1 });
    assert.deepEqual((await app().procedure(LIKE, { id: harder }, bob.token)).body, { liked: true, likesCount: 2 });
    assert.deepEqual((await app().procedure(UNLIKE, { id: harder }, alice.token)).body, { liked: false, likesCount: 1 });
    assert.deepEqual((await app().procedure(UNLIKE, { id: harder }, alice.token)).body, { liked: false, likesCount: 1 });
    assert.equal((await app().query(SONG, { id: harder }, bob.token)).body.song.liked, true);
    assert.equal((await app().query(SONG, { id: harder }, alice.token)).body.song.liked, false);
    assert.equal((await app().procedure(UNLIKE, { id: harder }, bob.token)).status, 200);

    const unknown = await app().procedure(LIKE, { id: UNKNOWN_ID }, alice.token);
    assert.equal(unknown.status, 404);
    assert.equal((await app().ctx.db.selectFrom('stars').selectAll().where('subject_id', '=', UNKNOWN_ID).execute()).length, 0);
    assert.equal((await app().procedure(UNLIKE, { id: UNKNOWN_ID }, alice.token)).status, 404);
    assertInvalid(await app().procedure(LIKE, {}, alice.token));
    const anonymous = await app().procedure(LIKE, { id: harder });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error, 'AuthMissing');
  });

  test('getArtist: statistics, most played songs and albums; unknown is 404', async () => {
    const { artist_id, album_id } = await app().ctx.db.selectFrom('tracks').select(['artist_id', 'album_id']).where('id', '=', lucky).executeTakeFirstOrThrow();
    const result = await app().query('app.svc.artist.getArtist', { uri: `earshot:artist:${artist_id}` });
    assert.equal(result.status, 200);
    const { artist, topSongs, topAlbums } = result.body;
    assert.deepEqual(
      { name: artist.name, playCount: artist.playCount, uniqueListeners: artist.uniqueListeners, genres: artist.genres },
      {
        name: 'Daft Punk',
        playCount: 5,
        uniqueListeners: 2,
        genres: [],
      },
    );
    assert.equal(artist.uri, `earshot:artist:${artist_id}`);
    assert.deepEqual(
      topSongs.map((song: { id: string }) => song.id),
      [lucky, ...[harder, around].sort()],
    );
    assert.equal(topAlbums[0].id, album_id);
    assert.deepEqual(
      topAlbums.map((album: { playCount: number }) => album.playCount),
      [3, 1, 1],
    );
    assert.equal((await app().query('app.svc.artist.getArtist', { id: UNKNOWN_ID })).status, 404);
  });

  test('getAlbum: statistics and tracks in disc and track order; unknown is 404', async () => {
    const [second, first, unnumbered] = await play(app(), alice, [
      { title: 'Side B', artist: 'Orderly', album: 'Sequence', discNumber: 2, trackNumber: 1, at: '2024-02-01T10:00:00Z' },
      { title: 'Side A', artist: 'Orderly', album: 'Sequence', discNumber: 1, trackNumber: 2, at: '2024-02-01T10:01:00Z' },
      { title: 'Hidden', artist: 'Orderly', album: 'Sequence', at: '2024-02-01T10:02:00Z' },
    ]);
    const { album_id } = await app().ctx.db.selectFrom('tracks').select('album_id').where('id', '=', first!).executeTakeFirstOrThrow();
    const result = await app().query('app.svc.album.getAlbum', { id: album_id! }, alice.token);
    assert.equal(result.status, 200);
    assert.equal(result.body.album.title, 'Sequence');
    assert.equal(result.body.album.artist, 'Orderly');
    assert.equal(result.body.album.playCount, 3);
    assert.equal(result.body.album.uniqueListeners, 1);
    assert.deepEqual(
      result.body.tracks.map((track: { id: string }) => track.id),
      [first, second, unnumbered],
    );
    const missing = await app().query('app.svc.album.getAlbum', { uri: `earshot:album:${UNKNOWN_ID}` });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'NotFound');
  });

  test('search finds artists, albums, songs and users, and treats LIKE wildcards as text', async () => {
    const result = await app().query('app.svc.feed.search', { q: 'daft' });
    assert.equal(result.status, 200);
    assert.deepEqual(
      result.body.artists.map((artist: { name: string }) => artist.name),
      ['Daft Punk'],
    );
    assert.equal(result.body.artists[0].playCount, 5);
    assert.equal(result.body.songs.length, 3, 'songs match by artist too');
    assert.deepEqual(result.body.users, []);
    const albums = await app().query('app.svc.feed.search', { q: 'DISCO' });
    assert.deepEqual(
      albums.body.albums.map((album: { title: string }) => album.title),
      ['Discovery'],
    );
    const users = await app().query('app.svc.feed.search', { q: 'ALI' });
    assert.deepEqual(users.body.users, [{ did: alice.did, handle: 'alice' }]);
    await app().ctx.db.updateTable('users').set({ display_name: 'Robert Plant' }).where('id', '=', bob.id).execute();
    const byName = await app().query('app.svc.feed.search', { q: 'plant' });
    assert.deepEqual(byName.body.users, [{ did: bob.did, handle: 'bob', displayName: 'Robert Plant' }]);
    const songs = await app().query('app.svc.feed.search', { q: 'lucky', limit: 1 }, bob.token);
    assert.deepEqual(
      songs.body.songs.map((song: { id: string; liked: boolean }) => [song.id, song.liked]),
      [[lucky, true]],
    );
    for (const q of ['%', '_', '\\']) {
      const literal = await app().query('app.svc.feed.search', { q });
      assert.deepEqual(literal.body, { artists: [], albums: [], songs: [], users: [] }, q);
    }
    assertInvalid(await app().query('app.svc.feed.search', { q: '' }));
    assertInvalid(await app().query('app.svc.feed.search', { q: 'x', limit: 51 }));
  });

  test('search folds case, accents and punctuation as the matcher does: bjork finds Björk, sigur ros Sigur Rós', async () => {
    const listener = await account(app(), 'folding');
    const [joga, crazy, hoppipolla] = await play(app(), listener, [
      { title: 'Jóga', artist: 'Björk', album: 'Homogenic', at: '2024-03-01T10:00:00Z' },
      { title: 'Crazy in Love', artist: 'Beyoncé feat. Jay-Z', album: 'Dangerously in Love', at: '2024-03-01T10:05:00Z' },
      { title: 'Hoppípolla', artist: 'Sigur Rós', album: 'Takk...', at: '2024-03-01T10:10:00Z' },
      { title: 'Bjork Suite', artist: 'Bjorkestra', at: '2024-03-01T10:15:00Z' },
    ]);
    const search = async (q: string) => (await app().query('app.svc.feed.search', { q })).body;
    const names = (list: { name?: string; title?: string; id?: string }[]) => list.map((item) => item.name ?? item.title);

    const bjork = await search('bjork');
    assert.deepEqual(names(bjork.artists), ['Björk', 'Bjorkestra'], 'the exact folded match first');
    assert.ok(
      bjork.songs.some((song: { id: string }) => song.id === joga),
      "Björk's song matches through its artist",
    );
    assert.deepEqual(names((await search('BEYONCE')).artists), ['Beyoncé']);
    assert.deepEqual(
      (await search('beyonce')).songs.map((song: { id: string }) => song.id),
      [crazy],
    );
    assert.deepEqual(names((await search('sigur ros')).artists), ['Sigur Rós']);
    assert.deepEqual(names((await search('sigur-rós!')).artists), ['Sigur Rós'], 'punctuation folds too');
    assert.deepEqual(
      (await search('hoppipolla')).songs.map((song: { id: string }) => song.id),
      [hoppipolla],
    );
    assert.deepEqual(names((await search('joga')).songs), ['Jóga']);
    assert.deepEqual(names((await search('takk')).albums), ['Takk...']);
    assert.deepEqual(
      (await search('jay-z')).songs.map((song: { id: string }) => song.id),
      [crazy],
      'a featured credit is still found as typed',
    );
    assert.deepEqual((await search('björk')).artists.length, 2, 'an accented query finds the same');
  });

  test("actor lists rank by the actor's plays and page", async () => {
    const songs = await app().query('app.svc.actor.getActorSongs', { did: alice.did });
    assert.equal(songs.status, 200);
    assert.equal(songs.body.songs[0].id, lucky);
    assert.equal(songs.body.songs[0].playCount, 2, "alice's plays, not everyone's");
    assert.equal(songs.body.songs.length, 5);
    assert.equal(songs.body.songs[0].liked, false, 'liked is relative to the caller');
    assert.equal((await app().query('app.svc.actor.getActorSongs', { did: alice.did }, bob.token)).body.songs[0].liked, true);
    const paged = [
      ...(await app().query('app.svc.actor.getActorSongs', { did: 'alice', limit: 3 })).body.songs,
      ...(await app().query('app.svc.actor.getActorSongs', { did: '@Alice', limit: 3, offset: 3 })).body.songs,
    ];
    assert.deepEqual(
      paged.map((song) => song.id),
      songs.body.songs.map((song: { id: string }) => song.id),
    );

    const artists = await app().query('app.svc.actor.getActorArtists', { did: 'alice' });
    const ranked = artists.body.artists.map((artist: { id: string; name: string; playCount: number }) => [artist.name, artist.playCount, artist.id]);
    // Equal play counts: the id breaks the tie.
    assert.deepEqual(
      ranked,
      [...ranked].sort((a, b) => (a[2] < b[2] ? -1 : 1)),
    );
    assert.deepEqual(ranked.map(([name, count]: unknown[]) => [name, count]).sort(), [
      ['Daft Punk', 3],
      ['Orderly', 3],
    ]);
    const bobArtists = await app().query('app.svc.actor.getActorArtists', { did: bob.did });
    assert.deepEqual(
      bobArtists.body.artists.map((artist: { name: string; playCount: number }) => [artist.name, artist.playCount]),
      [['Daft Punk', 2]],
    );
    assert.equal('uniqueListeners' in bobArtists.body.artists[0], false);
    const albums = await app().query('app.svc.actor.getActorAlbums', { did: 'bob', limit: 1 });
    assert.equal(albums.body.albums.length, 1);
    assert.equal(albums.body.albums[0].playCount, 1);

    for (const nsid of ['app.svc.actor.getActorSongs', 'app.svc.actor.getActorArtists', 'app.svc.actor.getActorAlbums']) {
      assertInvalid(await app().query(nsid, { did: 'not a handle!' }), /^actor must be a DID or handle$/);
      const unknown = await app().query(nsid, { did: 'nobody.example.com' });
      assert.equal(unknown.status, 404, nsid);
      assert.equal(unknown.body.error, 'NotFound');
    }
  });
});
