import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import type { SubsonicAPI } from 'subsonic-api';
import { describeWithApp } from '../../app/testing.ts';
import { catalogTracks, librarySource } from '../../core/library/operations-testing.ts';
import { elapsePlayback } from '../../core/library/playback-testing.ts';
import { errorCode, restJson, subsonicClient, subsonicUser } from './client-testing.ts';

const SONGS = ['Long Road', 'Second Song'].map((title, i) => ({ artist: 'The Reporters', title, album: 'Timelines', durationMs: 200_000, trackNumber: i + 1 }));

type State = 'starting' | 'playing' | 'paused' | 'stopped';

describeWithApp('Subsonic REST: reportPlayback (OpenSubsonic playbackReport) records plays with their true listening time', (app) => {
  let ids: string[];
  before(async () => {
    ids = await catalogTracks(app(), SONGS);
    await librarySource(
      app(),
      null,
      ids.map((trackId, i) => ({ path: `Timelines/${i + 1}.mp3`, trackId })),
    );
  });

  /** A listener with the real npm client; `report` sends reportPlayback as a player does. */
  async function listener(handle: string) {
    const user = await subsonicUser(app(), handle);
    const client: SubsonicAPI = subsonicClient(app(), { username: user.handle, password: user.key });
    const report = async (mediaId: string, state: State, positionMs: number, extra: { ignoreScrobble?: boolean; playbackRate?: number } = {}) => {
      const answer = await client.reportPlayback({ mediaId, mediaType: 'song', positionMs, state, ...extra });
      assert.equal(answer.status, 'ok', JSON.stringify(answer));
    };
    const plays = () =>
      app().ctx.db.selectFrom('scrobbles').select(['track_id', 'listened_at', 'played_ms']).where('user_id', '=', user.userId).orderBy('listened_at').execute();
    const nowPlaying = async () =>
      ((await client.getNowPlaying()).nowPlaying.entry ?? []).filter((entry) => entry.username === user.handle).map((entry) => entry.id);
    const elapse = (ms: number) => elapsePlayback(app().ctx.db, user.userId, ms);
    return { user, client, report, plays, nowPlaying, elapse };
  }

  test('starting, playing, paused and stopped: a play at the start with the time listened; the pause and a seek ahead do not count', async () => {
    const { client, report, plays, nowPlaying, elapse } = await listener('rp-steady');
    const names = (await client.getOpenSubsonicExtensions()).openSubsonicExtensions.map((extension) => extension.name);
    assert.ok(names.includes('playbackReport'));
    const [song] = ids;
    await report(song!, 'starting', 0);
    await elapse(2_000); // buffering: not listening
    await report(song!, 'playing', 0);
    assert.deepEqual(await nowPlaying(), [song]);
    await elapse(60_000);
    await report(song!, 'paused', 60_000);
    await elapse(600_000);
    assert.deepEqual(await nowPlaying(), [song], 'paused is still now playing');
    await report(song!, 'playing', 60_000);
    await elapse(5_000);
    await report(song!, 'playing', 150_000); // 5 s of listening, then a seek ahead
    await elapse(40_000);
    await report(song!, 'stopped', 190_000);
    const [play, ...more] = await plays();
    assert.equal(more.length, 0);
    assert.equal(play!.track_id, song);
    // 60 s + 5 s + 40 s, and the seek's 5 s are the time between two reports, which the test's own requests lengthen a little: not the 90 s skipped.
    assert.ok(play!.played_ms! >= 105_000 && play!.played_ms! < 115_000, `${play!.played_ms}`);
    assert.deepEqual(await nowPlaying(), [], 'stopped is no longer now playing');
  });

  test('a short listen sets now playing and records no play; ignoreScrobble records none however long', async () => {
    const { report, plays, nowPlaying, elapse } = await listener('rp-short');
    const [song, other] = ids;
    await report(song!, 'starting', 0);
    await report(song!, 'playing', 0);
    assert.deepEqual(await nowPlaying(), [song]);
    await elapse(30_000);
    await report(song!, 'stopped', 30_000);
    assert.deepEqual(await plays(), [], '30 s of a 200 s song is under half');

    await report(other!, 'starting', 0, { ignoreScrobble: true });
    await report(other!, 'playing', 0, { ignoreScrobble: true });
    assert.deepEqual(await nowPlaying(), [other]);
    await elapse(200_000);
    await report(other!, 'stopped', 200_000, { ignoreScrobble: true });
    assert.deepEqual(await plays(), []);
  });

  test('a new song ends the session before it, run on to its end, unless abandoned; the playback rate is the time listened per second', async () => {
    const { report, plays, elapse } = await listener('rp-next');
    const [song, other] = ids;
    await report(song!, 'starting', 0, { playbackRate: 2 });
    await report(song!, 'playing', 0, { playbackRate: 2 });
    await elapse(60_000);
    await report(song!, 'playing', 120_000, { playbackRate: 2 });
    await elapse(200_000);
    await report(other!, 'starting', 0); // the song ran on, at its rate, to its end
    const [play] = await plays();
    assert.deepEqual([play?.track_id, play?.played_ms], [song, 200_000]);
    // A player gone quiet for hours: its session went no further than its last report, 20 s.
    await report(other!, 'playing', 0);
    await elapse(20_000);
    await report(other!, 'playing', 20_000);
    await elapse(2 * 3_600_000);
    await report(song!, 'starting', 0);
    assert.equal((await plays()).length, 1);
  });

  test('a client that also scrobbles gets one play, with the time listened, whichever comes first', async () => {
    const { client, report, plays, elapse } = await listener('rp-both');
    const [song, other] = ids;
    // The scrobble during the session, then the stop.
    await report(song!, 'starting', 0);
    await report(song!, 'playing', 0);
    await client.scrobble({ id: song!, submission: false }); // the old way of saying now playing: the session goes on
    await elapse(120_000);
    await client.scrobble({ id: song!, time: Date.now() });
    const [early] = await plays();
    assert.equal(early?.played_ms, null, 'not known until the session ends');
    await elapse(30_000);
    await report(song!, 'stopped', 150_000);
    const once = await plays();
    assert.deepEqual(
      once.map((play) => [play.track_id, play.played_ms]),
      [[song, 150_000]],
    );
    // The stop, then the scrobble (no time: now).
    await report(other!, 'starting', 0);
    await report(other!, 'playing', 0);
    await elapse(110_000);
    await report(other!, 'stopped', 110_000);
    await client.scrobble({ id: other! });
    const after = await plays();
    assert.deepEqual(
      after.map((play) => [play.track_id, play.played_ms]),
      [
        [song, 150_000],
        [other, 110_000],
      ],
    );
  });

  test('missing parameters are error 10, unknown songs and podcasts 70, malformed values 0', async () => {
    const { user, client, plays, nowPlaying } = await listener('rp-bad');
    const auth = { u: user.handle, p: user.key, c: 'bad-player' };
    const code = async (params: Record<string, string>) => (await restJson(app(), 'reportPlayback', { ...auth, ...params })).error?.code;
    const good = { mediaId: ids[0]!, mediaType: 'song', positionMs: '0', state: 'playing' };
    for (const name of Object.keys(good)) {
      const { [name as keyof typeof good]: _, ...without } = good;
      assert.equal(await code(without), 10, `without ${name}`);
    }
    assert.equal(errorCode(await client.reportPlayback({ mediaId: randomUUID(), mediaType: 'song', positionMs: 0, state: 'playing' })), 70);
    assert.equal(await code({ ...good, mediaId: 'not-an-id' }), 70);
    assert.equal(await code({ ...good, mediaType: 'podcast' }), 70);
    assert.equal(await code({ ...good, mediaType: 'video' }), 0);
    assert.equal(await code({ ...good, state: 'completed' }), 0);
    assert.equal(await code({ ...good, positionMs: '-5' }), 0);
    assert.equal(await code({ ...good, positionMs: 'soon' }), 0);
    assert.equal(await code({ ...good, playbackRate: '0' }), 0);
    assert.equal(await code({ ...good, ignoreScrobble: 'perhaps' }), 0);
    assert.deepEqual([await plays(), await nowPlaying()], [[], []], 'a refused report changes nothing');
  });
});
