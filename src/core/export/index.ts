export { archiveName, exportArchive } from './archive.ts';
