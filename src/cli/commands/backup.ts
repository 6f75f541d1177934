import { loadConfig, type Config } from '../../toolkit/config.ts';
import { BackupError, backupEmbedded, restoreEmbedded } from '../../toolkit/db/backup.ts';
import { storageTargetFor } from '../../app/server.ts';
import { parseCommandArgs, type CommandRun } from '../command.ts';
import { CliError } from '../errors.ts';

/** The embedded database's directory, or how to back up the PostgreSQL server instead. */
function embeddedDataDir(config: Config, action: 'back up' | 'restore'): string {
  const target = storageTargetFor(config);
  if (target.kind === 'pglite' && target.dataDir) return target.dataDir;
  const tool =
    action === 'back up'
      ? 'pg_dump --format=custom --file earshot.dump "$DATABASE_URL"'
      : 'pg_restore --clean --if-exists --dbname "$DATABASE_URL" earshot.dump';
  throw new CliError(
    `Earshot keeps its data in PostgreSQL (DATABASE_URL); ${action} with PostgreSQL's own tools while it runs:\n  ${tool}\n(docs/running/backups.md)`,
  );
}

const asCliError = (error: unknown) => (error instanceof BackupError ? new CliError(error.message) : error);

export const backup: CommandRun = async (args, command) => {
  const { values } = parseCommandArgs(command, args, { out: { type: 'string' } }, 0);
  const dataDir = embeddedDataDir(loadConfig(), 'back up');
  const out = values.out ?? `earshot-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`;
  const bytes = await backupEmbedded(dataDir, out).catch((error: unknown) => Promise.reject(asCliError(error)));
  console.log(`Backed up ${dataDir} to ${out} (${(bytes / 1_048_576).toFixed(1)} MiB); \`earshot restore ${out}\` brings it back`);
};

export const restore: CommandRun = async (args, command) => {
  const { values, positionals } = parseCommandArgs(command, args, { replace: { type: 'boolean', default: false } }, 1);
  const dataDir = embeddedDataDir(loadConfig(), 'restore');
  const restored = await restoreEmbedded(dataDir, positionals[0]!, values.replace).catch((error: unknown) => Promise.reject(asCliError(error)));
  const aside = restored.movedAside ? `; the database that was there is now ${restored.movedAside}` : '';
  console.log(`Restored ${dataDir} from ${positionals[0]} (${restored.users} users)${aside}`);
};
