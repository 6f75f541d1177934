export { importBatch, importStatus } from './batch.ts';
export { runImport, type ImportSink, type ImportProgress, type ImportSummary } from './run.ts';
export { ImportFormatError } from './records.ts';
export { IMPORT_FORMATS, type ImportFormat, type ImportListen } from './schemas.ts';
export { planImports, ImportPlanError, type PlannedImport } from './plan.ts';
export { ZipError } from './sources.ts';
export { PlayClaims } from '../play-claims.ts';
