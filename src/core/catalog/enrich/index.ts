export { enrichmentJob } from './job.ts';
export { storedAlbumCover } from './covers.ts';
