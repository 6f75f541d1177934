/** The HTTP hosts a process may run: server.ts starts them, ops/ gives each its health and limits. */
export type HostName = 'api' | 'scrobbler';
