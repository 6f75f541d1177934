/** The `app.svc.filehostA` group: the caller's filehostA mirror (getFiles, spec 4.6) and syncing it now. */
import { getFilesOperation, syncOperation } from './shared/filehost-operations.ts';

export const filehostAOperations = [getFilesOperation('app.svc.filehostA.getFiles', 'filehostA'), syncOperation('app.svc.filehostA.sync', 'filehostA')];
