export { enrichCatalog, enrichmentJob, metadataClients, type EnrichmentRun, type MetadataClients } from './job.ts';
export { registerAlbumCoverRoute } from './covers.ts';
