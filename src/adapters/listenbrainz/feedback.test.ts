import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { lb, lbAs, lbUser, type LbUser } from './listenbrainz-testing.ts';

const RECORDING_MBID = '5b2a3d2c-31f4-4f5b-8b52-0d3c3e2a9f10';

/** Submits one listen through ListenBrainz and answers its recording_msid, as a client would learn it. */
async function listenedTo(app: TestApp, user: LbUser, title: string, at: number, mbid?: string): Promise<string> {
  const track_metadata = { artist_name: 'Cocteau Twins', track_name: title, ...(mbid && { additional_info: { recording_mbid: mbid } }) };
  const result = await lbAs(app, user, 'POST', '/submit-listens', { listen_type: 'single', payload: [{ listened_at: at, track_metadata }] });
  return result.body.payload.listens[0].recording_msid;
}

/** Whether the user likes the song, as the XRPC API (and every other client) sees it. */
async function liked(app: TestApp, user: LbUser, trackId: string): Promise<boolean> {
  const song = await app.query('app.svc.song.getSong', { id: trackId }, user.token);
  return song.body.song.liked;
}

const feedbackOf = async (app: TestApp, user: LbUser, query = '') => (await lb(app, 'GET', `/feedback/user/${user.handle}/get-feedback${query}`)).body;

describeWithApp('ListenBrainz recording feedback', (app) => {
  test('love is the song’s like, hate replaces it, clear removes either; get-feedback lists them', async () => {
    const user = await lbUser(app(), 'lb-feedback');
    const heaven = await listenedTo(app(), user, 'Heaven or Las Vegas', 1_700_000_000);
    const cherry = await listenedTo(app(), user, 'Cherry-coloured Funk', 1_700_000_300);
    const send = (body: unknown) => lbAs(app(), user, 'POST', '/feedback/recording-feedback', body);

    assert.deepEqual((await send({ recording_msid: heaven, score: 1 })).body, { status: 'ok' });
    assert.equal(await liked(app(), user, heaven), true);
    await send({ recording_msid: cherry, score: -1 });
    assert.equal(await liked(app(), user, cherry), false);

    const all = await feedbackOf(app(), user);
    assert.deepEqual([all.count, all.offset, all.total_count], [2, 0, 2]);
    const byMsid = new Map(all.feedback.map((item: { recording_msid: string }) => [item.recording_msid, item]));
    const love = byMsid.get(heaven) as Record<string, unknown>;
    assert.deepEqual(Object.keys(love).sort(), ['created', 'recording_mbid', 'recording_msid', 'score', 'user_id']);
    assert.deepEqual([love.score, love.user_id, love.recording_mbid], [1, user.handle, null]);
    assert.equal(typeof love.created, 'number');
    assert.equal((byMsid.get(cherry) as { score: number }).score, -1);

    assert.deepEqual(
      (await feedbackOf(app(), user, '?score=-1')).feedback.map((item: { recording_msid: string }) => item.recording_msid),
      [cherry],
    );
    assert.deepEqual(
      (await feedbackOf(app(), user, '?score=1&count=1')).feedback.map((item: { recording_msid: string }) => item.recording_msid),
      [heaven],
    );
    assert.equal((await feedbackOf(app(), user, '?offset=1')).count, 1);

    // Hating a loved song unlikes it; loving a hated one takes the hate back.
    await send({ recording_msid: heaven, score: -1 });
    assert.equal(await liked(app(), user, heaven), false);
    await send({ recording_msid: cherry, score: 1 });
    assert.equal(await liked(app(), user, cherry), true);
    const swapped = await feedbackOf(app(), user);
    assert.deepEqual(
      swapped.feedback.map((item: { recording_msid: string; score: number }) => [item.recording_msid, item.score]).sort(),
      [
        [heaven, -1],
        [cherry, 1],
      ].sort(),
    );

    await send({ recording_msid: heaven, score: 0 });
    await send({ recording_msid: cherry, score: 0 });
    assert.equal(await liked(app(), user, cherry), false);
    assert.deepEqual(await feedbackOf(app(), user), { feedback: [], count: 0, offset: 0, total_count: 0 });
  });

  test('a like set elsewhere is a love here; metadata=true describes each recording', async () => {
    const user = await lbUser(app(), 'lb-feedback-likes');
    const song = await listenedTo(app(), user, 'Lorelei', 1_700_000_000, RECORDING_MBID);
    await app().procedure('app.svc.song.likeSong', { id: song }, user.token);
    const { feedback } = await feedbackOf(app(), user, '?metadata=true');
    assert.equal(feedback.length, 1);
    assert.deepEqual([feedback[0].score, feedback[0].recording_mbid], [1, RECORDING_MBID]);
    assert.equal(feedback[0].track_metadata.track_name, 'Lorelei');
    assert.equal(feedback[0].track_metadata.additional_info.recording_msid, song);
    // By MusicBrainz id too.
    await lbAs(app(), user, 'POST', '/feedback/recording-feedback', { recording_mbid: RECORDING_MBID.toUpperCase(), score: -1 });
    assert.equal(await liked(app(), user, song), false);
    assert.equal((await feedbackOf(app(), user)).feedback[0].score, -1);
    // Liked again elsewhere: a love, not both.
    await app().procedure('app.svc.song.likeSong', { id: song }, user.token);
    assert.deepEqual(
      (await feedbackOf(app(), user)).feedback.map((item: { score: number }) => item.score),
      [1],
    );
  });

  test('bad feedback is a ListenBrainz 400; an unknown recording 404; no token 401', async () => {
    const user = await lbUser(app(), 'lb-feedback-bad');
    const msid = await listenedTo(app(), user, 'Iceblink Luck', 1_700_000_000);
    for (const [body, error] of [
      [{ score: 1 }, 'JSON document must contain either recording_msid or recording_mbid, and score top level keys'],
      [{ recording_msid: msid }, 'JSON document must contain either recording_msid or recording_mbid, and score top level keys'],
      [{ recording_msid: msid, score: 1, extra: true }, 'JSON document may only contain recording_msid, recording_mbid and score top level keys'],
      [{ recording_msid: msid, score: 2 }, 'Invalid JSON document submitted: score must be 1, 0 or -1.'],
      [{ recording_msid: 'not-a-uuid', score: 1 }, 'Invalid JSON document submitted: recording_msid must be a valid UUID.'],
      ['{"recording_msid": ', undefined],
    ] as const) {
      const result = await lbAs(app(), user, 'POST', '/feedback/recording-feedback', body);
      assert.equal(result.status, 400, JSON.stringify(body));
      if (error) assert.deepEqual(result.body, { code: 400, error });
    }
    const unknown = await lbAs(app(), user, 'POST', '/feedback/recording-feedback', { recording_msid: '00000000-0000-4000-8000-000000000000', score: 1 });
    assert.deepEqual([unknown.status, unknown.body], [404, { code: 404, error: 'Cannot find recording: 00000000-0000-4000-8000-000000000000' }]);
    const anonymous = await lb(app(), 'POST', '/feedback/recording-feedback', { body: { recording_msid: msid, score: 1 } });
    assert.deepEqual([anonymous.status, anonymous.body.code], [401, 401]);
    for (const [query, error] of [
      ['?score=2', 'Score can have a value of 1 or -1.'],
      ['?score=x', 'Invalid score argument: x'],
      ['?count=-5', "'count' should be a non-negative integer"],
      ['?metadata=maybe', 'Invalid metadata argument: maybe'],
    ]) {
      const result = await lb(app(), 'GET', `/feedback/user/${user.handle}/get-feedback${query}`);
      assert.deepEqual([result.status, result.body], [400, { code: 400, error }], query);
    }
    const nobody = await lb(app(), 'GET', '/feedback/user/nobody/get-feedback');
    assert.deepEqual([nobody.status, nobody.body], [404, { code: 404, error: 'Cannot find user: nobody' }]);
  });
});
