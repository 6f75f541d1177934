import { IMPORT_FORMATS } from '../../core/scrobbling/imports/schemas.ts';
import type { Command } from '../command.ts';

/**
 * Every command as static data; each module is imported only when its command runs, so help,
 * `--version` and light commands start without loading the database, the server or the importers.
 */
export const commands: Command[] = [
  {
    path: ['serve'],
    usage: 'serve [--only api|scrobbler] [--quiet]',
    summary: 'Run the API and the scrobble-submission host',
    load: async () => (await import('./serve.ts')).serve,
  },
  {
    path: ['user', 'create'],
    usage: 'user create <handle> [--display-name NAME] [--direct] [--server URL]',
    summary: 'Create an account (through the running server, or --direct on the database)',
    load: async () => (await import('./users.ts')).userCreate,
  },
  {
    path: ['user', 'promote'],
    usage: 'user promote <handle>',
    summary: 'Make a user an admin, who may merge, fix and undo catalog entries (on the database)',
    load: async () => (await import('./users.ts')).userPromote,
  },
  {
    path: ['user', 'demote'],
    usage: 'user demote <handle>',
    summary: 'Take the admin role away from a user (on the database)',
    load: async () => (await import('./users.ts')).userDemote,
  },
  {
    path: ['login'],
    usage: 'login <handle-or-did> [--server URL]',
    summary: 'Sign in and remember the token for later commands',
    load: async () => (await import('./session.ts')).login,
  },
  {
    path: ['logout'],
    usage: 'logout',
    summary: 'End the sign-in session on the server and forget the stored token',
    load: async () => (await import('./session.ts')).logout,
  },
  {
    path: ['whoami'],
    usage: 'whoami',
    summary: 'Show who the stored token belongs to',
    load: async () => (await import('./session.ts')).whoami,
  },
  {
    path: ['token', 'list'],
    usage: 'token list [--json] [--server URL]',
    summary: 'List personal access tokens',
    load: async () => (await import('./tokens.ts')).tokenList,
  },
  {
    path: ['token', 'create'],
    usage: 'token create <name> [--server URL]',
    summary: 'Create a personal access token (the secret is shown once)',
    load: async () => (await import('./tokens.ts')).tokenCreate,
  },
  {
    path: ['token', 'revoke'],
    usage: 'token revoke <id> [--server URL]',
    summary: 'Revoke a personal access token immediately',
    load: async () => (await import('./tokens.ts')).tokenRevoke,
  },
  {
    path: ['key', 'list'],
    usage: 'key list [--json] [--server URL]',
    summary: 'List API keys',
    load: async () => (await import('./keys.ts')).keyList,
  },
  {
    path: ['key', 'create'],
    usage: 'key create <name> [--description TEXT] [--server URL]',
    summary: 'Create an API key for a scrobbler client (key and secret are shown once)',
    load: async () => (await import('./keys.ts')).keyCreate,
  },
  {
    path: ['key', 'remove'],
    usage: 'key remove <id> [--server URL]',
    summary: 'Delete an API key; clients using it are refused from then on',
    load: async () => (await import('./keys.ts')).keyRemove,
  },
  {
    path: ['import'],
    usage: `import [${IMPORT_FORMATS.join('|')}] <file|folder>... [--dry-run] [--server URL] [--direct [--user HANDLE]]`,
    summary: 'Import listening history from export files, zip archives or folders; re-running resumes where it stopped',
    load: async () => (await import('./import.ts')).importHistory,
  },
  {
    path: ['export'],
    usage: 'export [--out FILE] [--server URL] [--direct [--user HANDLE]]',
    summary: 'Download all your data (profile, likes, playlists, every play as ListenBrainz JSON Lines) as a zip',
    load: async () => (await import('./export.ts')).exportData,
  },
  {
    path: ['backup'],
    usage: 'backup [--out FILE]',
    summary: 'Back up the embedded database to one file (stop the server first); for PostgreSQL, says how to use pg_dump',
    load: async () => (await import('./backup.ts')).backup,
  },
  {
    path: ['restore'],
    usage: 'restore FILE [--replace]',
    summary: 'Restore the embedded database from a backup (stop the server first); --replace moves an existing database aside',
    load: async () => (await import('./backup.ts')).restore,
  },
  {
    path: ['library', 'scan'],
    usage: 'library scan [--json]',
    summary: 'Scan the music folder (EARSHOT_MUSIC_DIR) into the library: new, changed and removed files',
    load: async () => (await import('./library.ts')).libraryScan,
  },
  {
    path: ['provider', 'list'],
    usage: 'provider list [--json] [--server URL]',
    summary: "The server's providers and your connections to them",
    load: async () => (await import('./providers.ts')).providerList,
  },
  {
    path: ['provider', 'connect'],
    usage: 'provider connect <filehostA|filehostB|musicstream> [--folder /Music] [--server URL]',
    summary: 'Connect an account: prints the consent page to open in a browser, then asks for the address it ends at',
    load: async () => (await import('./providers.ts')).providerConnect,
  },
  {
    path: ['provider', 'disconnect'],
    usage: 'provider disconnect <filehostA|filehostB|musicstream> [--server URL]',
    summary: "End a connection: its tokens are deleted and a file host's files leave your library",
    load: async () => (await import('./providers.ts')).providerDisconnect,
  },
  {
    path: ['provider', 'sync'],
    usage: 'provider sync <filehostA|filehostB> [--folder /Music] [--server URL]',
    summary: 'Sync your file host mirror now (only what changed); with --folder, mirror that folder from now on',
    load: async () => (await import('./providers.ts')).providerSync,
  },
  {
    path: ['fake-providers'],
    usage: 'fake-providers [--port 9101]',
    summary: 'Run fake filehostA, filehostB and musicstream servers on loopback (ports PORT to PORT+2) to try connections without accounts',
    load: async () => (await import('./fake-providers.ts')).fakeProviders,
  },
  {
    path: ['stats', 'rebuild'],
    usage: 'stats rebuild',
    summary: "Rebuild the statistics' rollups from the raw plays (on the database; PostgreSQL servers may keep running)",
    load: async () => (await import('./stats.ts')).statsRebuild,
  },
];
