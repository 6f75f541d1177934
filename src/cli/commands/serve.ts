import { loadConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { reportSummary, scanLibrary } from '../../library/scan/index.ts';
import { openAppContext, startHosts, type HostName } from '../../server.ts';
import { parseCommandArgs, type Command } from '../command.ts';
import { usageError } from '../errors.ts';

const HOSTS: Record<string, HostName[]> = { all: ['api', 'scrobbler'], api: ['api'], scrobbler: ['scrobbler'] };

export const serve: Command = {
  path: ['serve'],
  usage: 'serve [--only api|scrobbler] [--quiet]',
  summary: 'Run the API and the scrobble-submission host',
  async run(args) {
    const { values } = parseCommandArgs(this, args, { only: { type: 'string', default: 'all' }, quiet: { type: 'boolean', default: false } }, 0);
    const hosts = HOSTS[values.only];
    if (!hosts) throw usageError(`--only must be api or scrobbler, got "${values.only}"`);
    const config = loadConfig();
    const ctx = await openAppContext(config);
    const running = await startHosts(ctx, hosts, !values.quiet).catch(async (error) => {
      await ctx.close();
      throw error;
    });
    const storage = config.databaseUrl ? 'PostgreSQL server (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}/db`;
    console.log(`Earshot is running (storage: ${storage})`);
    if (running.urls.api) console.log(`  API:       ${running.urls.api}  (XRPC at /xrpc, OpenAPI at /openapi.json)`);
    if (running.urls.scrobbler) console.log(`  Scrobbler: ${running.urls.scrobbler}  (ListenBrainz /1/, Last.fm /2.0/, Audioscrobbler 1.2)`);
    const scan = config.musicDir ? scanInBackground(ctx) : undefined;
    const stop = async () => {
      // A scan stopped here gives its lease back, so the next start scans at once.
      await scan?.stop();
      await running.close();
      await ctx.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
};

/**
 * Scans the music folder while the hosts serve, at start and then every `scanIntervalMinutes`
 * (each one incremental): results and failures are only logged, and `stop` ends a running scan
 * at its next transaction boundary and cancels the next one.
 */
function scanInBackground(ctx: AppContext): { stop(): Promise<void> } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const run = () => {
    current = scanLibrary(ctx, { signal: controller.signal }).then(
      (report) => console.log(`Library: ${reportSummary(report)}`),
      (error: unknown) => {
        if (!controller.signal.aborted) console.error(`Library scan failed: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    const interval = ctx.config.scanIntervalMinutes * 60_000;
    if (interval > 0) void current.then(() => {
      if (!controller.signal.aborted) timer = setTimeout(run, interval).unref();
    });
  };
  run();
  return {
    async stop() {
      controller.abort();
      clearTimeout(timer);
      await current;
    },
  };
}
