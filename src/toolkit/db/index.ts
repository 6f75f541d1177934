export { connectionLimit, openDatabase, poolUsage, type Database, type StorageTarget } from './database.ts';
export type { PoolUsage } from './pglite-pool.ts';
export type * from './schema.ts';
export { clientDataProblem } from './client-data-error.ts';
export { inTransaction, isRetryable, RetryableConflict } from './retry.ts';
export { NO_JIT, settingsFor, withSettings } from './statement-settings.ts';
export { compiledOnce } from './compiled-once.ts';
export { databaseNowMs } from './database-now.ts';
export { currentSnapshot } from './snapshot.ts';
