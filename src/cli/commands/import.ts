import fs from 'node:fs';
import { findUserByActor } from '../../auth/index.ts';
import { loadConfig } from '../../config.ts';
import { importBatch, importStatus, ImportFormatError, IMPORT_FORMATS, runImport, type ImportFormat, type ImportProgress, type ImportSink, type ImportSummary } from '../../scrobbling/imports/index.ts';
import { openAppContext } from '../../server.ts';
import { authenticatedClient } from '../api-client.ts';
import { parseCommandArgs, serverOption, type Command } from '../command.ts';
import { readCredentials } from '../credentials.ts';
import { CliError, usageError } from '../errors.ts';

/** Without a terminal (logs, CI) progress is a plain line this often. */
const PLAIN_PROGRESS_INTERVAL_MS = 5000;
const BAR_WIDTH = 24;

function apiSink(server: string | undefined): ImportSink {
  const client = authenticatedClient(server);
  return {
    status: (fingerprint) => client.call('GET', `/xrpc/app.svc.scrobble.getImport?fingerprint=${fingerprint}`),
    send: (batch) => client.call('POST', '/xrpc/app.svc.scrobble.importListens', batch),
  };
}

/** The same batch function the server runs, on the database opened by this process. */
async function withDirectSink<T>(handle: string | undefined, run: (sink: ImportSink) => Promise<T>): Promise<T> {
  const actor = handle ?? readCredentials()?.handle;
  if (!actor) throw usageError('--direct needs --user HANDLE (or a previous `earshot login`)');
  const ctx = await openAppContext(loadConfig());
  try {
    const user = await findUserByActor(ctx.db, actor);
    if (!user) throw new CliError(`no user ${actor} in this database`);
    return await run({ status: (fingerprint) => importStatus(ctx.db, user.id, fingerprint), send: (batch) => importBatch(ctx.db, ctx.config, user.id, batch) });
  } finally {
    await ctx.close();
  }
}

const megabytes = (bytes: number) => (bytes / 1_048_576).toFixed(1);

function progressLine(progress: ImportProgress): string {
  const share = progress.fileBytes > 0 ? Math.min(progress.bytesRead / progress.fileBytes, 1) : 1;
  const filled = Math.round(share * BAR_WIDTH);
  return (
    `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ` +
    `${megabytes(progress.bytesRead)}/${megabytes(progress.fileBytes)} MB  ` +
    `stored ${progress.stored}  duplicate ${progress.duplicate}  ignored ${progress.ignored}  ${Math.round(progress.rate)} listens/s`
  );
}

/** A bar redrawn in place on a terminal; otherwise a line every few seconds and a last one at the end. */
function progressReporter(stream: NodeJS.WriteStream = process.stderr) {
  let lastPlain = Date.now();
  let latest: ImportProgress | undefined;
  let pending = false;
  return {
    update(progress: ImportProgress) {
      latest = progress;
      pending = true;
      if (stream.isTTY) stream.write(`\r${progressLine(progress)}\x1b[K`);
      else if (Date.now() - lastPlain >= PLAIN_PROGRESS_INTERVAL_MS) {
        stream.write(`${progressLine(progress)}\n`);
        lastPlain = Date.now();
        pending = false;
      }
    },
    end() {
      if (stream.isTTY && latest) stream.write('\n');
      else if (pending && latest) stream.write(`${progressLine(latest)}\n`);
    },
  };
}

function report(file: string, summary: ImportSummary): void {
  const done = summary.alreadyComplete;
  if (done) {
    console.log(
      `${file} was already imported completely${done.completedAt ? ` (${done.completedAt})` : ''}: ` +
        `${done.recordsConsumed} records, ${done.stored} stored, ${done.duplicate} duplicate, ${done.ignored} ignored. Nothing to do.`,
    );
    return;
  }
  if (summary.resumedFrom > 0) console.log(`Resumed after record ${summary.resumedFrom} (imported by an earlier run).`);
  console.log(`Imported ${file}: ${summary.records} records; this run stored ${summary.stored}, ${summary.duplicate} duplicate, ${summary.ignored} ignored.`);
  if (summary.ignoredExamples.length > 0) {
    console.log('Ignored, for example:');
    for (const { record, reason } of summary.ignoredExamples) console.log(`  record ${record}: ${reason}`);
  }
}

function checkReadable(file: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
    fs.accessSync(file, fs.constants.R_OK);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  if (!stat.isFile()) throw new CliError(`cannot read ${file}: not a regular file`);
}

export const importHistory: Command = {
  path: ['import'],
  usage: `import <${IMPORT_FORMATS.join('|')}> <file> [--server URL] [--direct [--user HANDLE]]`,
  summary: 'Import listening history from an export file; re-running resumes where it stopped',
  async run(args) {
    const { values, positionals } = parseCommandArgs(this, args, { ...serverOption, direct: { type: 'boolean', default: false }, user: { type: 'string' } }, 2);
    const [format, file] = positionals as [string, string];
    if (!(IMPORT_FORMATS as readonly string[]).includes(format)) throw usageError(`unknown format "${format}"; use one of ${IMPORT_FORMATS.join(', ')}`);
    checkReadable(file);
    const progress = progressReporter();
    const run = (sink: ImportSink) => runImport({ file, format: format as ImportFormat, sink, onProgress: progress.update });
    try {
      report(file, values.direct ? await withDirectSink(values.user, run) : await run(apiSink(values.server)));
    } catch (error) {
      if (error instanceof ImportFormatError) throw new CliError(`${file}: ${error.message}`);
      throw error;
    } finally {
      progress.end();
    }
  },
};
