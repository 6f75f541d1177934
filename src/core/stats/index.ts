export { wrappedFor, type WrappedRequest } from './wrapped.ts';
export { foldAll, statsFoldJob } from './rollups/fold.ts';
export { rebuildRollups } from './rollups/rebuild.ts';
export { analyzeGrownQueue } from './rollups/vacuum.ts';
export { ALL_TIME, trackPlays, type PlaysWindow } from './rollups/reads.ts';
export { playedCounts } from './rollups/ranked-totals.ts';
export { totalAhead, totalAtImportEnd, totalQueuedOf } from './rollups/totals-ahead.ts';
