/** The two file hosts and how they differ where the library cares. */
export const FILE_HOSTS = ['filehostA', 'filehostB'] as const;
export type FileHostName = (typeof FILE_HOSTS)[number];

/** Whether paths differing only in case are one path there (Dropbox's are; Drive's are not). */
export const IGNORES_CASE: Readonly<Record<FileHostName, boolean>> = { filehostA: false, filehostB: true };
