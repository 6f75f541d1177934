/** The `app.svc.filehostB` group: the caller's filehostB mirror (getFiles, spec 4.6) and syncing it now. */
import { getFilesOperation, syncOperation } from './shared/filehost-operations.ts';

export const filehostBOperations = [getFilesOperation('app.svc.filehostB.getFiles', 'filehostB'), syncOperation('app.svc.filehostB.sync', 'filehostB')];
