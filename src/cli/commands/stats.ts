import { rebuildRollups } from '../../core/stats/index.ts';
import { parseCommandArgs, type CommandRun } from '../command.ts';
import { onDatabase } from '../direct.ts';

export const statsRebuild: CommandRun = async (args, command) => {
  parseCommandArgs(command, args, {}, 0);
  const started = Date.now();
  const counted = await onDatabase((db) => rebuildRollups(db));
  console.log(`Rebuilt the rollups from ${counted} plays in ${((Date.now() - started) / 1000).toFixed(1)} s`);
};
