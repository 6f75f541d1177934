import { sql } from 'kysely';
import { parseFromTokenizer } from 'music-metadata';
import { tokenizer, parseContentRange, type IRangeRequestClient } from '@tokenizer/range';
import { deriveKeys } from '../src/core/auth/index.ts';
import { createApiKey } from '../src/core/auth/api-keys.ts';
import { loadConfig } from '../src/toolkit/config.ts';
import type { AppContext } from '../src/core/context.ts';
import type { Database } from '../src/toolkit/db/index.ts';
import { syncFileHost } from '../src/core/filehost/sync.ts';
import { reportSummary } from '../src/core/library/scan/index.ts';
import { AUDIO_TYPES, isAudioFile, suffixOf } from '../src/core/library/tags.ts';
import { saveConnection } from '../src/core/providers/connections.ts';
import { createFileHostBClient } from '../src/core/providers/filehost-b/client.ts';
import { startFakeFileHostB, type FakeFileHostB } from '../src/core/providers/filehost-b/fake.ts';
import { startHosts } from '../src/app/server.ts';
import { benchTargets, compare, median, timed } from './harness.ts';
import { generatedMusic, TRACKS_PER_ALBUM } from './music.ts';
import { Metrics } from '../src/core/ops/metrics.ts';

const ROOT = '/Music';
/** The folder getFiles lists: the first album, 12 songs and a cover. */
const FOLDER = 'Artist 0/Album 0';
/** Bytes asked for at least per range request, as the sync's tag reader asks (src/filehost/remote-tags.ts). */
const MINIMUM_CHUNK = 64 * 1024;
/** Files whose tags are read at once, as the sync reads a slice. */
const READ_CONCURRENCY = 20;

interface HostedFile {
  id: string;
  path: string;
  size: number;
}

/** The fake holding the generated collection under /Music; answers its audio files. */
async function hostedMusic(fake: FakeFileHostB, count: number): Promise<HostedFile[]> {
  const audio: HostedFile[] = [];
  for (const { path, bytes } of generatedMusic(count)) {
    const id = fake.addFile(`${ROOT}/${path}`, bytes);
    if (isAudioFile(path)) audio.push({ id, path: `${ROOT}/${path}`, size: bytes.length });
  }
  return audio;
}

/** A hosted file ranged through the real client's download(), with no database and no token refresh in the way. */
function rangeClient(client: ReturnType<typeof createFileHostBClient>, token: string, file: HostedFile): IRangeRequestClient {
  // The type and name the sync gives the parser, which picks its format by them.
  const info = {
    size: file.size,
    mimeType: AUDIO_TYPES[suffixOf(file.path)]!,
    path: file.path.slice(file.path.lastIndexOf('/') + 1),
    acceptPartialRequests: true,
  };
  return {
    getHeadInfo: async () => info,
    async getResponse(_method, range) {
      const response = await client.download(token, file, ROOT, range ? `bytes=${range[0]}-${range[1]}` : undefined);
      return {
        ...info,
        contentRange: parseContentRange(response.headers.get('content-range') ?? `bytes 0-${file.size - 1}/${file.size}`),
        arrayBuffer: async () => new Uint8Array(await response.arrayBuffer()),
      };
    },
    abort: () => {},
  };
}

/** The floor of a first sync: every file's tags read over loopback byte ranges by music-metadata alone. */
async function readAllRemotely(fake: FakeFileHostB, token: string, files: HostedFile[]): Promise<void> {
  const client = createFileHostBClient(fake.config);
  for (let at = 0; at < files.length; at += READ_CONCURRENCY) {
    await Promise.all(
      files.slice(at, at + READ_CONCURRENCY).map(async (file) => {
        const ranged = await tokenizer(rangeClient(client, token, file), { minimumChunkSize: MINIMUM_CHUNK, initialChunkSize: MINIMUM_CHUNK });
        try {
          await parseFromTokenizer(ranged, { skipCovers: true });
        } finally {
          await ranged.close();
        }
      }),
    );
  }
}

/** The floor of a sync with nothing changed: one list_folder/continue round trip and one read of the mirrored files. */
async function continueAndSelect(fake: FakeFileHostB, token: string, db: Database, sourceId: number, cursor: string): Promise<void> {
  const response = await fetch(`${fake.config.apiUrl}/files/list_folder/continue`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cursor }),
  });
  const page = (await response.json()) as { entries: unknown[] };
  if (page.entries.length !== 0) throw new Error(`the host reports ${page.entries.length} changes`);
  await sql`select path, name, size, modified_at, file_id, client_modified, server_modified from library_files where source_id = ${sourceId}`.execute(db);
}

/** A folder of the mirror by raw SQL: the folder (by its path, ignoring case), then its parent, subfolders and files. */
async function rawFolder(db: Database, sourceId: number, path: string): Promise<void> {
  const { rows } = await sql<{
    id: string;
    parent_id: string | null;
  }>`select * from library_directories where source_id = ${sourceId} and lower(path) = ${path.toLowerCase()}`.execute(db);
  const directory = rows[0]!;
  await Promise.all([
    sql`select * from library_directories where id = ${directory.parent_id}`.execute(db),
    sql`select * from library_directories where parent_id = ${directory.id} order by name`.execute(db),
    sql`select * from library_files where directory_id = ${directory.id} order by name`.execute(db),
  ]);
}

/** A user connected to the fake as a completed consent would leave it; answers the user's id. */
async function connectedUser(ctx: AppContext, fake: FakeFileHostB): Promise<string> {
  const handle = `bench${Date.now()}`;
  const user = await ctx.db
    .insertInto('users')
    .values({ did: `did:plc:${handle}`, handle })
    .returning('id')
    .executeTakeFirstOrThrow();
  const grant = fake.oauth.grant();
  await saveConnection(
    ctx,
    user.id,
    'filehostB',
    { accessToken: grant.accessToken, refreshToken: grant.refreshToken, expiresAt: new Date(Date.now() + grant.expiresIn * 1000) },
    { id: 'bench-account', name: 'bench' },
  );
  return user.id;
}

/**
 * Median first syncs against reading the same tags remotely with music-metadata alone, run
 * alternately; the mirror is dropped (with its cursor) before each sync and outside its time.
 * The catalog (artists, albums, tracks) stays, so every sync after the first matches into
 * existing entries, as a re-mirror would; with 3 runs or more the median is one of those.
 */
async function compareFirstSync(
  name: string,
  ctx: AppContext,
  fake: FakeFileHostB,
  userId: string,
  count: number,
  runs: number,
  baseline: () => Promise<void>,
): Promise<void> {
  const reset = () => ctx.db.deleteFrom('library_sources').where('user_id', '=', userId).where('kind', '=', 'filehostB').execute();
  const sync = async () => {
    const report = await syncFileHost(ctx, userId, 'filehostB', {});
    if (report.added !== count) throw new Error(`first sync added ${report.added} of ${count} files: ${reportSummary(report)}`);
  };
  const syncTimes: number[] = [];
  const baselineTimes: number[] = [];
  // Bytes downloaded per file by each, to show both read alike (ranges, not whole files).
  const perFile = (from: number) => `${((fake.bytesServed - from) / count / 1024).toFixed(1)} KiB/file`;
  let syncBytes = '';
  let baselineBytes = '';
  for (let i = 0; i < runs; i++) {
    await reset();
    let from = fake.bytesServed;
    syncTimes.push(await timed(sync));
    syncBytes = perFile(from);
    from = fake.bytesServed;
    baselineTimes.push(await timed(baseline));
    baselineBytes = perFile(from);
  }
  const syncMs = median(syncTimes);
  const baselineMs = median(baselineTimes);
  console.log(
    `  ${name} first sync: ${(syncMs / 1000).toFixed(2)} s, ${Math.round((count * 1000) / syncMs)} files/s, ${syncBytes}` +
      `  | ranged music-metadata alone: ${(baselineMs / 1000).toFixed(2)} s, ${Math.round((count * 1000) / baselineMs)} files/s, ${baselineBytes}` +
      `  | ratio ${(syncMs / baselineMs).toFixed(2)}x`,
  );
}

/**
 * filehostB sync against its fake on loopback: files/s of a first sync against reading the same
 * tags over byte ranges with music-metadata alone; the time of a sync with nothing changed
 * against one list_folder/continue plus one SELECT of the mirrored files; getFiles of an album
 * folder through HTTP against raw SQL.
 */
export async function fileHostSyncBenchmark(): Promise<void> {
  const count = Number(process.env.BENCH_FILEHOST_FILES ?? 2000);
  const runs = Number(process.env.BENCH_RUNS ?? 5);
  const fake = await startFakeFileHostB({ pageSize: 2000 });
  try {
    const files = await hostedMusic(fake, count);
    console.log(`filehostB sync: ${count} files in ${Math.ceil(count / TRACKS_PER_ALBUM)} albums at a loopback fake, ${runs} runs`);
    const baselineToken = fake.oauth.grant().accessToken;
    // One warm-up, as compare() makes: the first round of connections and parser code is not the floor.
    await readAllRemotely(fake, baselineToken, files);
    for await (const target of benchTargets({ durable: true })) {
      // Limits off: a bench measures the server, not the budget of one busy client address.
      const base = loadConfig({ EARSHOT_RATE_LIMITS: 'off' });
      const ctx: AppContext = {
        config: { ...base, port: 0, providers: { ...base.providers, filehostB: fake.config } },
        db: target.db,
        keys: deriveKeys('bench-secret-'.padEnd(48, 'x')),
        metrics: new Metrics(target.db),
      };
      const hosts = await startHosts(ctx, ['api'], false);
      try {
        const userId = await connectedUser(ctx, fake);
        await compareFirstSync(target.name, ctx, fake, userId, count, runs, () => readAllRemotely(fake, baselineToken, files));

        const source = await ctx.db
          .selectFrom('library_sources')
          .select(['id', 'sync_cursor'])
          .where('user_id', '=', userId)
          .where('kind', '=', 'filehostB')
          .executeTakeFirstOrThrow();
        await compare(
          `${target.name} sync, nothing changed`,
          async () => {
            const report = await syncFileHost(ctx, userId, 'filehostB', {});
            if (report.unchanged !== count) throw new Error(`the sync found changes: ${reportSummary(report)}`);
          },
          'list_folder/continue + SELECT library_files',
          () => continueAndSelect(fake, baselineToken, ctx.db, source.id, source.sync_cursor!),
          runs,
        );

        const { key } = await createApiKey(ctx.db, ctx.keys, { userId }, { name: 'bench', description: '' });
        const url = `${hosts.urls.api}/xrpc/app.svc.filehostB.getFiles?${new URLSearchParams({ at: `${ROOT}/${FOLDER}` })}`;
        await compare(
          `${target.name} getFiles ${FOLDER}`,
          async () => {
            const response = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
            const body = (await response.json()) as { files?: unknown[] };
            if (response.status !== 200 || body.files?.length !== TRACKS_PER_ALBUM)
              throw new Error(`getFiles answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
          },
          'raw SQL',
          () => rawFolder(ctx.db, source.id, FOLDER),
        );
      } finally {
        await hosts.close();
        await target.close();
      }
    }
  } finally {
    await fake.close();
  }
}
