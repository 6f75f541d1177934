import { loadConfig } from '../../toolkit/config.ts';
import type { AppContext } from '../../core/context.ts';
import { reportSummary, scanLibrary } from '../../core/library/scan/index.ts';
import type { HostName } from '../../app/host-name.ts';
import { openAppContext, startHosts } from '../../app/server.ts';
import { startBackgroundJobs, type BackgroundJob } from '../../toolkit/background.ts';
import { FILE_HOSTS, syncAllFileHosts } from '../../core/filehost/index.ts';
import { musicstreamPollJob } from '../../core/musicstream/index.ts';
import { statsFoldJob } from '../../core/stats/index.ts';
import { enrichmentJob } from '../../core/catalog/enrich/index.ts';
import { relayJob } from '../../core/relay/sender.ts';
import { syncJob } from '../../core/sync/runner.ts';
import { webhookJob } from '../../core/webhooks/sender.ts';
import { parseCommandArgs, type CommandRun } from '../command.ts';
import { usageError } from '../errors.ts';

const HOSTS: Record<string, HostName[]> = { all: ['api', 'scrobbler'], api: ['api'], scrobbler: ['scrobbler'] };

export const serve: CommandRun = async (args, command) => {
  const { values } = parseCommandArgs(command, args, { only: { type: 'string', default: 'all' }, quiet: { type: 'boolean', default: false } }, 0);
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
  if (running.urls.api) console.log(`  API:       ${running.urls.api}  (open it in a browser for the web app; XRPC at /xrpc, OpenAPI at /openapi.json)`);
  if (running.urls.scrobbler)
    console.log(`  Scrobbler: ${running.urls.scrobbler}  (ListenBrainz /1/, Last.fm /2.0/, Audioscrobbler 1.2, Maloja /apis/mlj_1/; OpenAPI at /openapi.json)`);
  if (running.urls.metrics) console.log(`  Metrics:   ${running.urls.metrics}/metrics`);
  const jobs = startBackgroundJobs(backgroundJobs(ctx), ctx.metrics);
  const stop = async (signal: NodeJS.Signals) => {
    // A second signal while draining finds no handler and ends the process at once.
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    console.log(`shutting down (${signal}): draining ${await running.connections()} connections, for up to ${config.shutdownTimeoutMs} ms…`);
    // A scan or sync stopped here gives its lease back, so the next start takes it at once.
    await Promise.all([running.close(), jobs.stop()]);
    await ctx.close();
    console.log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

/** What a serving process repeats: the statistics' fold, rescans of the music folder (when one is set), file host syncs, streaming polls, metadata enrichment, relaying plays out, syncing plays in, webhooks. */
function backgroundJobs(ctx: AppContext): BackgroundJob[] {
  const jobs: BackgroundJob[] = [statsFoldJob(ctx.db)];
  if (ctx.config.musicDir) {
    jobs.push({
      name: 'Library',
      intervalMs: ctx.config.scanIntervalMinutes * 60_000,
      run: async (signal) => reportSummary(await scanLibrary(ctx, { signal })),
    });
  }
  const { syncMinutes } = ctx.config.providers;
  if (syncMinutes > 0 && FILE_HOSTS.some((host) => ctx.config.providers[host] !== undefined)) {
    jobs.push({ name: 'File hosts', intervalMs: syncMinutes * 60_000, run: (signal) => syncAllFileHosts(ctx, signal) });
  }
  if (ctx.config.providers.musicstream !== undefined) jobs.push(musicstreamPollJob(ctx));
  if (ctx.config.enrichment.enabled) jobs.push(enrichmentJob(ctx));
  if (ctx.config.relay.enabled) jobs.push(relayJob(ctx));
  if (ctx.config.sync.enabled) jobs.push(syncJob(ctx));
  if (ctx.config.webhooks.enabled) jobs.push(webhookJob(ctx));
  return jobs;
}
