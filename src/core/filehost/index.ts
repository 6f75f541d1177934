export { syncAllFileHosts, syncFileHost } from './sync.ts';
export { FILE_HOSTS, type FileHostName } from './hosts.ts';
