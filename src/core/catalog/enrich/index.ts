export { enrichmentJob } from './job.ts';
export { registerAlbumCoverRoute } from './covers.ts';
