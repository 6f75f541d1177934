/**
 * File host mirrors end to end, for both hosts, against fakes speaking each host's real API on
 * loopback: connect through the consent redirect, the first sync (tags over byte ranges),
 * getFiles in spec 2.6's exact fields, incremental syncs, streaming and queueing hosted files,
 * and every failure as an explicit error.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { settleDetached } from '../../toolkit/background.ts';
import { encodeTestTrack } from '../library/test-music.ts';
import { startFakeFileHostA } from '../providers/filehost-a/fake.ts';
import { startFakeFileHostB } from '../providers/filehost-b/fake.ts';
import { connectThroughConsent, useProvider } from '../providers/testing.ts';
import { subsonicClient, subsonicUser } from '../../adapters/subsonic/client-testing.ts';
import { describeWithApp } from '../../app/testing.ts';
import type { FileHostName } from './hosts.ts';

const HOSTS = [
  { host: 'filehostA', start: startFakeFileHostA },
  { host: 'filehostB', start: startFakeFileHostB },
] as const satisfies readonly { host: FileHostName; start: unknown }[];

const DIRECTORY_FIELDS = ['createdAt', 'fileId', 'id', 'name', 'parentId', 'path', 'updatedAt'];
const FILE_FIELDS: Record<FileHostName, string[]> = {
  filehostA: ['createdAt', 'directoryId', 'fileId', 'id', 'name', 'trackId', 'updatedAt'],
  filehostB: ['clientModified', 'createdAt', 'directoryId', 'fileId', 'id', 'name', 'pathDisplay', 'pathLower', 'serverModified', 'trackId', 'updatedAt'],
};

const track = (title: string, album = 'Hosted Album', seconds = 30) =>
  encodeTestTrack('mp3', { title, artist: 'Hosted Band', album, trackNumber: 1 }, seconds * 1000).bytes;

for (const { host, start } of HOSTS) {
  describeWithApp(`${host} mirror`, (app) => {
    let fake: Awaited<ReturnType<typeof start>>;
    let user: Awaited<ReturnType<typeof subsonicUser>>;
    const getFiles = (at?: string, token = user.token) => app().query(`app.svc.${host}.getFiles`, at === undefined ? {} : { at }, token);
    const sync = (input: object = {}, token = user.token) => app().procedure(`app.svc.${host}.sync`, input, token);

    before(async () => {
      fake = await start({ pageSize: 2 });
      useProvider(app(), host, fake.config);
      user = await subsonicUser(app(), `mirror${host.at(-1)}`);
      fake.addFile('/Music/Rock/01 First.mp3', track('First'));
      fake.addFile('/Music/Rock/02 Second.mp3', track('Second'));
      fake.addFile('/Music/Rock/notes.txt', new TextEncoder().encode('not music'));
      fake.addFile('/Music/Jazz/Live/01 Late.mp3', track('Late', 'Live Album'));
      fake.addFile('/Elsewhere/outside.mp3', track('Outside'));
      fake.addFolder('/Music/Empty');
    });
    after(() => fake.close());

    test('before connecting: getFiles and sync answer NotConnected', async () => {
      for (const answer of [await getFiles(), await sync()]) {
        assert.equal(answer.status, 404);
        assert.equal(answer.body.error, 'NotConnected');
        assert.match(answer.body.message, new RegExp(`/providers/${host}/connect`));
      }
    });

    test('connecting through the consent redirect mirrors the folder: tags read over byte ranges, songs matched', async () => {
      const connected = await connectThroughConsent(app(), user.token, host, '?folder=/Music');
      assert.equal(connected.status, 200, JSON.stringify(connected.body));
      assert.equal(connected.body.folder, '/Music');
      await settleDetached();
      const root = await getFiles();
      assert.equal(root.status, 200, JSON.stringify(root.body));
      assert.deepEqual(
        root.body.directories.map((d: any) => d.name),
        ['Empty', 'Jazz', 'Rock'],
      );
      const rock = await getFiles('/Music/Rock');
      assert.deepEqual(
        rock.body.files.map((f: any) => f.name),
        ['01 First.mp3', '02 Second.mp3'],
      );
      assert.ok(
        rock.body.files.every((f: any) => f.trackId !== ''),
        'every audio file is matched to a song',
      );
      const song = await app()
        .ctx.db.selectFrom('tracks')
        .select(['title', 'artist', 'duration'])
        .where('id', '=', rock.body.files[0].trackId)
        .executeTakeFirstOrThrow();
      assert.deepEqual([song.title, song.artist], ['First', 'Hosted Band']);
      assert.ok(Math.abs(song.duration! - 30_000) < 100, `duration ${song.duration}`);
      // Tags came from ranges: far fewer bytes than the three files hold.
      const whole = 3 * track('x').length;
      assert.ok(fake.bytesServed < whole, `${fake.bytesServed} bytes downloaded for ${whole} bytes of files`);
      const connections = await app().query('app.svc.provider.getConnections', {}, user.token);
      const connection = connections.body.connections.find((c: any) => c.provider === host);
      assert.equal(connection.folder, '/Music');
      assert.ok(connection.lastSyncAt);
      assert.equal(connection.lastSyncError, null);
    });

    test("getFiles answers spec 2.6's fields exactly, for the root, a nested folder, by path or by the host's id", async () => {
      const root = await getFiles();
      assert.deepEqual(Object.keys(root.body).sort(), ['directories', 'directory', 'files', 'parentDirectory']);
      assert.deepEqual(Object.keys(root.body.directory).sort(), DIRECTORY_FIELDS);
      assert.equal(root.body.directory.path, '/Music');
      assert.equal(root.body.directory.parentId, '');
      assert.deepEqual(root.body.parentDirectory, {});
      for (const directory of root.body.directories) {
        assert.deepEqual(Object.keys(directory).sort(), DIRECTORY_FIELDS);
        assert.ok(Object.values(directory).every((value) => typeof value === 'string'));
        assert.equal(directory.parentId, root.body.directory.id);
      }
      const jazz = root.body.directories.find((d: any) => d.name === 'Jazz');
      const live = await getFiles('/Music/Jazz/Live');
      assert.equal(live.body.directory.path, '/Music/Jazz/Live');
      assert.equal(live.body.parentDirectory.id, jazz.id);
      const [file] = live.body.files;
      assert.deepEqual(Object.keys(file).sort(), FILE_FIELDS[host]);
      assert.equal(file.directoryId, live.body.directory.id);
      if (host === 'filehostB') {
        assert.equal(file.pathDisplay, '/Music/Jazz/Live/01 Late.mp3');
        assert.equal(file.pathLower, '/music/jazz/live/01 late.mp3');
        assert.ok(!Number.isNaN(Date.parse(file.clientModified)) && !Number.isNaN(Date.parse(file.serverModified)));
      } else {
        assert.ok(Object.values(file).every((value) => typeof value === 'string'));
      }
      const byId = await getFiles(jazz.fileId);
      assert.equal(byId.status, 200);
      assert.equal(byId.body.directory.id, jazz.id);
      assert.equal((await getFiles('/Music/Jazz/')).body.directory.id, jazz.id, 'a trailing slash names the same folder');
    });

    test('getFiles refuses folders it does not mirror, in words', async () => {
      const outside = await getFiles('/Elsewhere');
      assert.equal(outside.status, 404);
      assert.equal(outside.body.error, 'NotFound');
      assert.match(outside.body.message, /not in the mirrored folder \/Music/);
      const unknown = await getFiles('/Music/Nope');
      assert.equal(unknown.status, 404);
      assert.equal((await getFiles('no-such-id')).status, 404);
      const stranger = await subsonicUser(app(), `stranger${host.at(-1)}`);
      assert.equal((await getFiles(undefined, stranger.token)).body.error, 'NotConnected');
    });

    test('a sync takes only the changes: added, changed, removed and moved files and folders', async () => {
      const before = await getFiles('/Music/Rock');
      const firstId = before.body.files[0].id;
      const requestsBefore = fake.server.requests.length;
      fake.addFile('/Music/Rock/03 Third.mp3', track('Third'));
      fake.addFile('/Music/Rock/02 Second.mp3', track('Second (Remastered)'));
      fake.removePath('/Music/Jazz/Live/01 Late.mp3');
      fake.move('/Music/Empty', '/Music/Pop');
      fake.addFile('/Music/Pop/01 Sunny.mp3', track('Sunny', 'Pop Album'));
      const report = await sync();
      assert.equal(report.status, 200, JSON.stringify(report.body));
      assert.equal(report.body.status, 'scanned');
      assert.deepEqual([report.body.added, report.body.updated, report.body.removed], [2, 1, 1]);
      const listed = fake.server.requests.slice(requestsBefore);
      if (host === 'filehostB') assert.ok(!listed.includes('POST /files/list_folder'), 'the sync asks with its cursor, not for a new listing');
      else
        assert.ok(
          listed.some((request: string) => request.startsWith('GET /changes?')),
          'the sync asks for the changes after its page token',
        );
      const rock = await getFiles('/Music/Rock');
      assert.deepEqual(
        rock.body.files.map((f: any) => f.name),
        ['01 First.mp3', '02 Second.mp3', '03 Third.mp3'],
      );
      assert.equal(rock.body.files[0].id, firstId, 'unchanged files keep their ids');
      const second = await app().ctx.db.selectFrom('tracks').select('title').where('id', '=', rock.body.files[1].trackId).executeTakeFirstOrThrow();
      assert.equal(second.title, 'Second (Remastered)');
      const root = await getFiles();
      assert.deepEqual(
        root.body.directories.map((d: any) => d.name),
        ['Jazz', 'Pop', 'Rock'],
      );
      assert.deepEqual(
        (await getFiles('/Music/Pop')).body.files.map((f: any) => f.name),
        ['01 Sunny.mp3'],
      );
      assert.deepEqual((await getFiles('/Music/Jazz/Live')).body.files, []);
      const again = await sync();
      assert.deepEqual([again.body.added, again.body.updated, again.body.removed], [0, 0, 0]);
    });

    test('hosted files stream through /rest/stream with Range, and their folders go into the play queue', async () => {
      const rock = await getFiles('/Music/Rock');
      const client = subsonicClient(app(), { username: user.handle, password: user.key });
      const bytes = track('First');
      const whole = await client.stream({ id: rock.body.files[0].trackId });
      assert.equal(whole.status, 200);
      assert.equal(whole.headers.get('content-type'), 'audio/mpeg');
      assert.deepEqual(new Uint8Array(await whole.arrayBuffer()), bytes);
      const ranged = await fetch(`${app().apiUrl}/rest/stream.view?id=${rock.body.files[0].trackId}&u=${user.handle}&p=${user.key}&v=1.16.1&c=test&f=json`, {
        headers: { range: 'bytes=10-29' },
      });
      assert.equal(ranged.status, 206);
      assert.equal(ranged.headers.get('content-range'), `bytes 10-29/${bytes.length}`);
      assert.deepEqual(new Uint8Array(await ranged.arrayBuffer()), bytes.slice(10, 30));
      const queued = await app().procedure('app.svc.player.addDirectoryToQueue', { directory: rock.body.directory.id }, user.token);
      assert.equal(queued.status, 200, JSON.stringify(queued.body));
      assert.deepEqual(
        queued.body.added,
        rock.body.files.map((f: any) => f.trackId),
      );
    });

    test('a host that is down or limiting answers 502 or 429 on sync, while getFiles still serves the mirror', async () => {
      fake.server.failNext({ status: 503 });
      const down = await sync();
      assert.equal(down.status, 502);
      assert.equal(down.body.error, 'ProviderUnavailable');
      const served = await getFiles('/Music/Rock');
      assert.equal(served.status, 200);
      assert.equal(served.body.files.length, 3);
      fake.server.failNext({ status: 429, headers: { 'retry-after': '7' } });
      const limited = await sync();
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('retry-after'), '7');
      fake.server.failNext('drop');
      assert.equal((await sync()).status, 502);
      assert.equal((await sync()).status, 200, 'the next sync goes through');
    });

    test('an expired access token is refreshed; a revoked grant marks the connection broken', async () => {
      fake.oauth.expireAccessTokens();
      const refreshed = await sync();
      assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
      fake.oauth.revokeAll();
      const broken = await sync();
      assert.equal(broken.status, 409);
      assert.equal(broken.body.error, 'ConnectionBroken');
      const connections = await app().query('app.svc.provider.getConnections', {}, user.token);
      assert.equal(connections.body.connections.find((c: any) => c.provider === host).status, 'broken');
      assert.equal((await getFiles('/Music/Rock')).status, 200, 'the mirror stays readable');
    });

    test('choosing a folder that does not exist is NotFound; without configuration the host is off', async () => {
      const other = await subsonicUser(app(), `folder${host.at(-1)}`);
      const connected = await connectThroughConsent(app(), other.token, host, '?folder=/Missing');
      assert.equal(connected.status, 200);
      await settleDetached();
      const connections = await app().query('app.svc.provider.getConnections', {}, other.token);
      assert.match(connections.body.connections[0].lastSyncError, /Missing/, 'the failed first sync is visible');
      const missing = await sync({}, other.token);
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error, 'NotFound');
      assert.match(missing.body.message, /Missing/);
      const bad = await sync({ folder: 'Music' }, other.token);
      assert.equal(bad.status, 400);
      useProvider(app(), host, undefined);
      try {
        const off = await getFiles(undefined, other.token);
        assert.equal(off.status, 400);
        assert.equal(off.body.error, 'ProviderNotConfigured');
        assert.match(off.body.message, new RegExp(`${host.toUpperCase()}_CLIENT_ID`));
      } finally {
        useProvider(app(), host, fake.config);
      }
    });
  });
}
