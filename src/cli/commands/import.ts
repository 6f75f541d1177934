import fs from 'node:fs';
// Each from its own module, not the imports' index, which also exports the database's batch code.
import { ImportFormatError } from '../../core/scrobbling/imports/records.ts';
import { IMPORT_FORMATS, type ImportFormat } from '../../core/scrobbling/imports/schemas.ts';
import { ImportPlanError, planImports, type PlannedImport } from '../../core/scrobbling/imports/plan.ts';
import { PlayClaims } from '../../core/scrobbling/play-claims.ts';
import { runImport, type ImportSink, type ImportSummary } from '../../core/scrobbling/imports/run.ts';
import { ZipError } from '../../core/scrobbling/imports/sources.ts';
import { authenticatedClient } from '../api-client.ts';
import { parseCommandArgs, serverOption, type CommandInfo, type CommandRun } from '../command.ts';
import { withDirectUser } from '../direct.ts';
import { CliError, usageError } from '../errors.ts';
import { progressReporter } from './import-progress.ts';

/** The exit status of an import stopped by Ctrl-C, as a shell reports a SIGINT. */
const INTERRUPTED_EXIT = 130;

function apiSink(server: string | undefined): ImportSink {
  const client = authenticatedClient(server);
  return {
    status: (fingerprint) => client.call('GET', `/xrpc/app.svc.scrobble.getImport?fingerprint=${fingerprint}`),
    send: (batch) => client.call('POST', '/xrpc/app.svc.scrobble.importListens', batch),
  };
}

/**
 * The same batch function the server runs, on the database opened by this process (imported only
 * then, see direct.ts). No server's fold job runs beside a direct import, so once it has stored
 * everything the import adds its plays to the all-time totals itself (seconds for 100k plays): the
 * profile reads as at steady state from the server's start, not only after the job's first turns.
 */
async function withDirectSink<T>(handle: string | undefined, run: (sink: ImportSink) => Promise<T>): Promise<T> {
  const { importBatch, importStatus } = await import('../../core/scrobbling/imports/batch.ts');
  const { totalQueuedOf } = await import('../../core/stats/index.ts');
  return withDirectUser(handle, async (ctx, user) => {
    const result = await run({
      status: (fingerprint) => importStatus(ctx.db, user.id, fingerprint),
      send: (batch) => importBatch(ctx.db, ctx.config, user.id, batch),
    });
    await totalQueuedOf(ctx.db, user.id, Number.POSITIVE_INFINITY);
    return result;
  });
}

function report(label: string, summary: ImportSummary, dryRun: boolean): void {
  const done = summary.alreadyComplete;
  if (done) {
    console.log(
      `${label} was already imported completely${done.completedAt ? ` (${done.completedAt})` : ''}: ` +
        `${done.recordsConsumed} records, ${done.stored} stored, ${done.duplicate} duplicate, ${done.ignored} ignored. Nothing to do.`,
    );
    return;
  }
  if (summary.resumedFrom > 0) console.log(`Resumed after record ${summary.resumedFrom} (imported by an earlier run).`);
  if (dryRun) {
    console.log(
      `Dry run of ${label}: ${summary.records} records; would store ${summary.stored} (${summary.newSongs} of them with songs new to the catalog), ` +
        `${summary.duplicate} duplicate, ${summary.ignored} ignored. Nothing was written.`,
    );
  } else
    console.log(
      `Imported ${label}: ${summary.records} records; this run stored ${summary.stored}, ${summary.duplicate} duplicate, ${summary.ignored} ignored.`,
    );
  if (summary.ignoredExamples.length > 0) {
    console.log('Ignored, for example:');
    for (const { record, reason } of summary.ignoredExamples) console.log(`  record ${record}: ${reason}`);
  }
}

function reportTotal(summaries: ImportSummary[], dryRun: boolean): void {
  if (summaries.length < 2) return;
  const sum = (field: 'stored' | 'duplicate' | 'ignored') => summaries.reduce((total, summary) => total + summary[field], 0);
  const verb = dryRun ? 'would store' : 'this run stored';
  console.log(`Total: ${summaries.length} files; ${verb} ${sum('stored')}, ${sum('duplicate')} duplicate, ${sum('ignored')} ignored.`);
}

/** The command line again, quoted for a POSIX shell, to resume with. */
function sameCommand(args: string[]): string {
  const quote = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`);
  return `earshot ${['import', ...args].map(quote).join(' ')}`;
}

/** Ctrl-C asks the running import to stop after its current batch commits; a second one quits at once. */
function stopOnInterrupt(): { requested: () => boolean; dispose: () => void } {
  let requested = false;
  const onSigint = () => {
    if (requested) process.exit(INTERRUPTED_EXIT);
    requested = true;
    process.stderr.write('\nStopping after the current batch commits (Ctrl-C again to quit at once)...\n');
  };
  process.on('SIGINT', onSigint);
  return { requested: () => requested, dispose: () => process.off('SIGINT', onSigint) };
}

/** The named format and the paths: a first word that is a format names it; one that is no file and looks like a name is a usage error. */
function formatAndPaths(positionals: string[], command: CommandInfo): { format: ImportFormat | undefined; paths: string[] } {
  const [first, ...rest] = positionals as [string, ...string[]];
  if ((IMPORT_FORMATS as readonly string[]).includes(first)) {
    if (rest.length === 0) throw usageError(`usage: earshot ${command.usage}`);
    return { format: first as ImportFormat, paths: rest };
  }
  if (rest.length > 0 && /^[a-z][a-z0-9-]*$/i.test(first) && !fs.existsSync(first)) {
    throw usageError(`unknown format "${first}"; use one of ${IMPORT_FORMATS.join(', ')}`);
  }
  return { format: undefined, paths: positionals };
}

async function runAll(imports: PlannedImport[], sink: ImportSink, dryRun: boolean, args: string[]): Promise<void> {
  const progress = progressReporter(
    imports.reduce((total, planned) => total + planned.source.bytes, 0),
    imports.length,
  );
  const stop = stopOnInterrupt();
  const summaries: ImportSummary[] = [];
  // One dry run over every file: a play repeated in another file counts as duplicate, as a real import would count it.
  const claims = new PlayClaims();
  try {
    for (const { source, format } of imports) {
      progress.startFile();
      const summary = await runImport({ source, format, sink, dryRun, claims, onProgress: progress.update, stopRequested: stop.requested }).catch(
        (error: unknown) => {
          if (error instanceof ImportFormatError) throw new CliError(`${source.label}: ${error.message}`);
          throw error;
        },
      );
      progress.endFile(summary);
      progress.clear();
      summaries.push(summary);
      report(source.label, summary, dryRun);
      if (summary.interrupted || stop.requested()) {
        reportTotal(summaries, dryRun);
        const where = summary.interrupted ? `after record ${summary.records} of ${source.label}` : `after ${source.label}`;
        throw new CliError(
          `interrupted ${where}; everything before is committed. To resume, run the same command again:\n  ${sameCommand(args)}`,
          INTERRUPTED_EXIT,
        );
      }
    }
    reportTotal(summaries, dryRun);
  } finally {
    stop.dispose();
    progress.end();
  }
}

export const importHistory: CommandRun = async (args, command) => {
  const options = {
    ...serverOption,
    direct: { type: 'boolean', default: false },
    user: { type: 'string' },
    'dry-run': { type: 'boolean', default: false },
  } as const;
  const { values, positionals } = parseCommandArgs(command, args, options, { min: 1 });
  const { format, paths } = formatAndPaths(positionals, command);
  const plan = await planImports(paths, format).catch((error: unknown) => {
    if (error instanceof ImportPlanError || error instanceof ZipError) throw new CliError(error.message);
    throw error;
  });
  try {
    for (const { path, reason } of plan.skipped) console.log(`Skipped ${path}: ${reason}.`);
    if (plan.imports.length === 0) throw new CliError(`nothing to import in ${paths.join(', ')}`);
    const dryRun = values['dry-run'];
    const run = (sink: ImportSink) => runAll(plan.imports, sink, dryRun, args);
    await (values.direct ? withDirectSink(values.user, run) : run(apiSink(values.server)));
  } catch (error) {
    if (error instanceof ZipError) throw new CliError(error.message);
    throw error;
  } finally {
    plan.close();
  }
};
