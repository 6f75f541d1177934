export { enrichmentJob } from './job.ts';
export { storedAlbumCover } from './covers.ts';
export { storedArtistImage } from './artist-images.ts';
