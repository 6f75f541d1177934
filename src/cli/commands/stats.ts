import { rebuildRollups } from '../../stats/index.ts';
import { parseCommandArgs, type Command } from '../command.ts';
import { onDatabase } from '../direct.ts';

export const statsRebuild: Command = {
  path: ['stats', 'rebuild'],
  usage: 'stats rebuild',
  summary: "Rebuild the statistics' rollups from the raw plays (on the database; PostgreSQL servers may keep running)",
  async run(args) {
    parseCommandArgs(this, args, {}, 0);
    const started = Date.now();
    const counted = await onDatabase((db) => rebuildRollups(db));
    console.log(`Rebuilt the rollups from ${counted} plays in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  },
};
