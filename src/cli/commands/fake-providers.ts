/**
 * `earshot fake-providers`: the test fakes of filehostA, filehostB and musicstream on loopback,
 * seeded with a small music folder and a few recent plays, so connecting, browsing, streaming,
 * pausing and polled scrobbles can be tried by hand without any provider account.
 */
import type { ProviderConfig, ProviderName } from '../../toolkit/config.ts';
import { encodeTestTrack, type TestFormat } from '../../core/library/test-music.ts';
import type { FakeFileHost } from '../../core/providers/fake/file-host.ts';
import { startFakeFileHostA } from '../../core/providers/filehost-a/fake.ts';
import { startFakeFileHostB } from '../../core/providers/filehost-b/fake.ts';
import { startFakeMusicstream } from '../../core/providers/musicstream/fake.ts';
import { parseCommandArgs, type CommandRun } from '../command.ts';
import { usageError } from '../errors.ts';

const CLIENT = { clientId: 'earshot-fake', clientSecret: 'fake-secret' };
const FORMATS: TestFormat[] = ['mp3', 'flac', 'ogg'];

/** Two artists, two albums each, three songs an album, in the three formats the tests use. */
function seedMusic(host: FakeFileHost): void {
  for (let artist = 1; artist <= 2; artist++) {
    for (let album = 1; album <= 2; album++) {
      for (let song = 1; song <= 3; song++) {
        const format = FORMATS[(song - 1) % FORMATS.length]!;
        const tags = { title: `Song ${song}`, artist: `Fake Artist ${artist}`, album: `Fake Album ${artist}.${album}`, trackNumber: song, year: 2000 + album };
        host.addFile(`/Music/Fake Artist ${artist}/Fake Album ${artist}.${album}/0${song} Song ${song}.${format}`, encodeTestTrack(format, tags, 20_000).bytes);
      }
    }
  }
}

function environment(name: ProviderName, config: ProviderConfig): string[] {
  const prefix = name.toUpperCase();
  return [
    `${prefix}_CLIENT_ID=${config.clientId}`,
    `${prefix}_CLIENT_SECRET=${config.clientSecret}`,
    `${prefix}_AUTHORIZE_URL=${config.authorizeUrl}`,
    `${prefix}_TOKEN_URL=${config.tokenUrl}`,
    `${prefix}_API_URL=${config.apiUrl}`,
  ];
}

export const fakeProviders: CommandRun = async (args, command) => {
  const { values } = parseCommandArgs(command, args, { port: { type: 'string', default: '9101' } }, 0);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_533) throw usageError(`--port must be a port number, got "${values.port}"`);
  const fileHostA = await startFakeFileHostA({ ...CLIENT, port });
  const fileHostB = await startFakeFileHostB({ ...CLIENT, port: port + 1 });
  const musicstream = await startFakeMusicstream({ ...CLIENT, port: port + 2 });
  seedMusic(fileHostA);
  seedMusic(fileHostB);
  const now = Date.now();
  for (const [minutesAgo, title] of [
    [50, 'Morning Tune'],
    [45, 'Second Wind'],
    [40, 'Coffee Break'],
  ] as const) {
    musicstream.addRecentPlay({
      title,
      artist: 'Streamed Artist',
      album: 'Streamed Album',
      durationMs: 200_000,
      playedAt: new Date(now - minutesAgo * 60_000),
    });
  }
  musicstream.setPlaying({ title: 'Coffee Break', artist: 'Streamed Artist', album: 'Streamed Album', durationMs: 200_000 }, true);
  const lines = [
    ...environment('filehostA', fileHostA.config),
    ...environment('filehostB', fileHostB.config),
    ...environment('musicstream', musicstream.config),
    'MUSICSTREAM_POLL_SECONDS=10',
  ];
  console.log(`Fake providers are running (Ctrl-C stops them): filehostA ${fileHostA.url}, filehostB ${fileHostB.url}, musicstream ${musicstream.url}.`);
  console.log('Each file host has /Music with 12 songs; musicstream has 3 recent plays and a song playing. Start Earshot with:\n');
  console.log(`${lines.map((line) => `  ${line} \\`).join('\n')}\n  npm start`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await Promise.all([fileHostA.close(), fileHostB.close(), musicstream.close()]);
};
