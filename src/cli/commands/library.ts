import { loadConfig } from '../../toolkit/config.ts';
import { formatReport, musicRoot, scanLibrary } from '../../core/library/scan/index.ts';
import { openAppContext } from '../../app/server.ts';
import { jsonOption, parseCommandArgs, printJson, type CommandRun } from '../command.ts';
import { CliError } from '../errors.ts';

export const libraryScan: CommandRun = async (args, command) => {
  const { values } = parseCommandArgs(command, args, jsonOption, 0);
  const config = loadConfig();
  // Before opening the database: a wrong folder is reported without waiting for storage.
  await musicRoot(config.musicDir);
  const ctx = await openAppContext(config);
  const report = await scanLibrary(ctx).finally(() => ctx.close());
  if (values.json) printJson(report);
  else console.log(formatReport(report));
  // Skipped files are part of a finished scan; a scan that did not run is a failure to report.
  if (report.status === 'already-scanning') throw new CliError('the music folder is already being scanned; try again when that scan ends');
};
