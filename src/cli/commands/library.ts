import { loadConfig } from '../../config.ts';
import { formatReport, musicRoot, scanLibrary } from '../../library/scan/index.ts';
import { openAppContext } from '../../server.ts';
import { parseCommandArgs, type Command } from '../command.ts';
import { CliError } from '../errors.ts';

export const libraryScan: Command = {
  path: ['library', 'scan'],
  usage: 'library scan [--json]',
  summary: 'Scan the music folder (EARSHOT_MUSIC_DIR) into the library: new, changed and removed files',
  async run(args) {
    const { values } = parseCommandArgs(this, args, { json: { type: 'boolean', default: false } }, 0);
    const config = loadConfig();
    // Before opening the database: a wrong folder is reported without waiting for storage.
    await musicRoot(config.musicDir);
    const ctx = await openAppContext(config);
    const report = await scanLibrary(ctx).finally(() => ctx.close());
    console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
    // Skipped files are part of a finished scan; a scan that did not run is a failure to report.
    if (report.status === 'already-scanning') throw new CliError('the music folder is already being scanned; try again when that scan ends');
  },
};
