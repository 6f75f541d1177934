import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from 'listenbrainz';
import { describeWithApp, jsonRequest, type TestApp } from '../../app/testing.ts';

interface LbAccount {
  handle: string;
  token: string;
  key: string;
}

async function lbAccount(app: TestApp, handle: string): Promise<LbAccount> {
  const { token } = await app.signup(handle);
  const created = await app.procedure('app.svc.apikey.createApikey', { name: 'ListenBrainz client' }, token);
  return { handle, token, key: created.body.key };
}

// The npm client has no delete method, so deletion is a plain POST as ListenBrainz documents it.
function deleteListen(app: TestApp, account: LbAccount, body: unknown, key = account.key) {
  return jsonRequest<any>(`${app.scrobblerUrl}/1/delete-listen`, 'POST', { body, headers: { authorization: `Token ${key}` } });
}

async function listens(app: TestApp, handle: string): Promise<{ listened_at: number; recording_msid: string; track_metadata: any }[]> {
  return (await jsonRequest<any>(`${app.scrobblerUrl}/1/user/${handle}/listens`, 'GET')).body.payload.listens;
}

const track = (title: string) => ({ artist_name: 'Broadcast', track_name: title, release_name: 'Tender Buttons' });

describeWithApp('ListenBrainz delete-listen', (app) => {
  test('deletes the listen named by listened_at and recording_msid, as listed; counts follow', async () => {
    const ada = await lbAccount(app(), 'lbdel-ada');
    const client = new Client(ada.key, `${app().scrobblerUrl}/`);
    const payload = [1_700_000_000, 1_700_000_300].map((listened_at, i) => ({
      listened_at,
      track_metadata: track(['Black Cat', 'Tears in the Typing Pool'][i]!),
    }));
    await client.submitListen({ listen_type: 'import', payload });
    const [newest, oldest] = await listens(app(), ada.handle);

    const deleted = await deleteListen(app(), ada, { listened_at: newest!.listened_at, recording_msid: newest!.recording_msid });
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body, { status: 'ok' });
    assert.deepEqual(
      (await listens(app(), ada.handle)).map((listen) => listen.recording_msid),
      [oldest!.recording_msid],
    );
    const count = await jsonRequest<any>(`${app().scrobblerUrl}/1/user/${ada.handle}/listen-count`, 'GET');
    assert.equal(count.body.payload.count, 1);
    const profile = await app().query('app.svc.actor.getProfile', { did: ada.handle });
    assert.equal(profile.body.scrobblesCount, 1);

    // Gone already, a wrong song at that time, or never there: ListenBrainz answers ok all the same.
    for (const body of [
      { listened_at: newest!.listened_at, recording_msid: newest!.recording_msid },
      { listened_at: String(oldest!.listened_at), recording_msid: newest!.recording_msid },
      { listened_at: 42, recording_msid: oldest!.recording_msid },
    ]) {
      assert.deepEqual((await deleteListen(app(), ada, body)).body, { status: 'ok' });
    }
    assert.equal((await listens(app(), ada.handle)).length, 1);
  });

  test("only the token owner's listens go; bad bodies are 400 and bad tokens 401, in ListenBrainz's shape", async () => {
    const bo = await lbAccount(app(), 'lbdel-bo');
    const cy = await lbAccount(app(), 'lbdel-cy');
    await new Client(bo.key, `${app().scrobblerUrl}/`).submitListen({
      listen_type: 'single',
      payload: [{ listened_at: 1_700_000_000, track_metadata: track('Black Cat') }],
    });
    const [listen] = await listens(app(), bo.handle);
    const named = { listened_at: listen!.listened_at, recording_msid: listen!.recording_msid };

    assert.deepEqual((await deleteListen(app(), cy, named)).body, { status: 'ok' });
    assert.equal((await listens(app(), bo.handle)).length, 1);

    const refused: [unknown, string][] = [
      ['not json', 'Cannot parse JSON document'],
      [[named], 'Invalid JSON document submitted.'],
      [{ recording_msid: named.recording_msid }, 'Listen timestamp missing.'],
      [{ listened_at: 'noon', recording_msid: named.recording_msid }, 'noon: Listen timestamp invalid.'],
      [{ listened_at: named.listened_at }, 'Recording MSID missing.'],
      [{ listened_at: named.listened_at, recording_msid: 'abc' }, 'abc: Recording MSID format invalid.'],
    ];
    for (const [body, message] of refused) {
      const result = await deleteListen(app(), bo, body);
      assert.equal(result.status, 400, JSON.stringify(body));
      assert.equal(result.body.code, 400);
      assert.ok(result.body.error.startsWith(message), `${result.body.error} should start with ${message}`);
    }
    const stranger = await deleteListen(app(), bo, named, '0123456789abcdef0123456789abcdef');
    assert.deepEqual([stranger.status, stranger.body], [401, { code: 401, error: 'Invalid authorization token.' }]);
    assert.equal((await listens(app(), bo.handle)).length, 1);
  });

  test('a listen corrected through the API is listed with its new song, and deleted by it', async () => {
    const di = await lbAccount(app(), 'lbdel-di');
    const sent = { listened_at: 1_700_000_000, track_metadata: track('Balck Cat') };
    await new Client(di.key, `${app().scrobblerUrl}/`).submitListen({ listen_type: 'single', payload: [sent] });
    const feed = await app().query('app.svc.actor.getActorScrobbles', { did: di.handle });
    const corrected = await app().procedure('app.svc.scrobble.updateScrobble', { id: feed.body.scrobbles[0].id, title: 'Black Cat' }, di.token);
    assert.equal(corrected.status, 200, JSON.stringify(corrected.body));

    const [listen] = await listens(app(), di.handle);
    assert.equal(listen!.track_metadata.track_name, 'Black Cat');
    assert.equal(listen!.recording_msid, corrected.body.scrobble.trackId);
    assert.deepEqual((await deleteListen(app(), di, { listened_at: listen!.listened_at, recording_msid: listen!.recording_msid })).body, { status: 'ok' });
    assert.deepEqual(await listens(app(), di.handle), []);
  });
});
