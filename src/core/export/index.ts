export { archiveName, exportArchive } from './archive.ts';
export { exportRoutes } from './route.ts';
