/**
 * Failures of the machine or network around the process, not of Earshot: a busy port, a database
 * that cannot be reached or refuses, a data directory that cannot be written, a full disk, a server
 * secret that cannot be read. Each is
 * reported as one line saying what to do, without a stack trace (src/cli/main.ts). Errors not
 * recognised here pass through unchanged, so a bug still shows its stack.
 */
export type OperatingErrorKind =
  | 'port-in-use'
  | 'port-not-allowed'
  | 'address-unavailable'
  | 'database-unreachable'
  | 'database-refused'
  | 'database-busy'
  | 'startup-parameter-refused'
  | 'pool-mode-unsupported'
  | 'data-dir-unwritable'
  | 'disk-full'
  | 'embedded-database-aborted'
  | 'secret-unreadable';

export class OperatingError extends Error {
  constructor(
    readonly kind: OperatingErrorKind,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

type SystemError = Error & { code?: string; path?: string };

/**
 * The embedded database reaches the disk through Emscripten's file system, which throws its own
 * ErrnoError (not an Error: no message, no stack, no path) carrying a WASI errno number instead of
 * Node's code. The numbers of the failures reported here, by the code Node would give.
 */
const EMSCRIPTEN_CODES: Record<number, string> = {
  2: 'EACCES',
  19: 'EDQUOT',
  20: 'EEXIST',
  22: 'EFBIG',
  51: 'ENOSPC',
  54: 'ENOTDIR',
  63: 'EPERM',
  69: 'EROFS',
};

function codeOf(error: unknown): string | undefined {
  if (error instanceof Error) return (error as SystemError).code;
  const emscripten = error as { name?: unknown; errno?: unknown } | null;
  return emscripten?.name === 'ErrnoError' && typeof emscripten.errno === 'number' ? EMSCRIPTEN_CODES[emscripten.errno] : undefined;
}

const pathOf = (error: unknown): string | undefined => (error instanceof Error ? (error as SystemError).path : undefined);

/** A database URL fit to print: its password replaced by ***. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(DATABASE_URL, not a valid URL)';
  }
}

/** A failed listen on `host:port`, the port set by the variable `portVariable` (PORT, SCROBBLER_PORT). */
export function listenFailure(error: unknown, host: string, port: number, portVariable: string): unknown {
  switch (codeOf(error)) {
    case 'EADDRINUSE':
      return new OperatingError(
        'port-in-use',
        `port ${port} on ${host} is already in use (another Earshot, or another program): stop that, or set ${portVariable} to a free port`,
        { cause: error },
      );
    case 'EACCES':
      return new OperatingError(
        'port-not-allowed',
        `this user may not listen on port ${port} (ports below 1024 need privileges): set ${portVariable} to 1024 or above and put a reverse proxy in front`,
        { cause: error },
      );
    case 'EADDRNOTAVAIL':
      return new OperatingError(
        'address-unavailable',
        `${host} is not an address of this machine: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for all)`,
        { cause: error },
      );
    default:
      return error;
  }
}

/** Codes of a PostgreSQL server that cannot be reached at all. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

/** What to change, by the SQLSTATE a server or a pooler in front of it answers a connection with. */
const REFUSALS: Record<string, { kind: OperatingErrorKind; advice: string }> = {
  '28P01': { kind: 'database-refused', advice: "correct the password in DATABASE_URL (or the role's password on the server)" },
  '28000': { kind: 'database-refused', advice: "correct the user in DATABASE_URL, or let it in through the server's pg_hba.conf" },
  '3D000': { kind: 'database-refused', advice: 'create the database (createdb), or correct the database name in DATABASE_URL' },
  '42501': { kind: 'database-refused', advice: 'grant the user LOGIN and CONNECT on the database, or correct the user in DATABASE_URL' },
  '53300': {
    kind: 'database-busy',
    advice: "raise the server's max_connections, run fewer Earshot processes, or put a pooler (PgBouncer) between them and the server",
  },
  '57P03': { kind: 'database-busy', advice: 'the server is starting or stopping: start Earshot again once it accepts connections' },
};

/**
 * PgBouncer answers most refusals with 08P01 (protocol violation); its message tells them apart.
 * The advice names what to change in pgbouncer.ini or DATABASE_URL.
 */
const POOLER_REFUSALS: { message: RegExp; kind: OperatingErrorKind; advice: string }[] = [
  {
    message: /unsupported startup parameter/,
    kind: 'startup-parameter-refused',
    advice: "remove that parameter from DATABASE_URL (set it on the server instead: ALTER DATABASE … SET), or add it to the pooler's ignore_startup_parameters",
  },
  {
    // In statement mode PgBouncer drops a client that begins a transaction; Earshot's first one is a migration's.
    message: /transaction blocks not allowed in statement pooling mode/,
    kind: 'pool-mode-unsupported',
    advice: "set pool_mode = transaction (or session) for Earshot's database in the pooler: Earshot needs transactions of several statements",
  },
  { message: /no such database/, kind: 'database-refused', advice: "add the database to the pooler's [databases], or correct its name in DATABASE_URL" },
  {
    message: /no more connections allowed|max_client_conn/,
    kind: 'database-busy',
    advice: "raise the pooler's max_client_conn, or run fewer Earshot processes",
  },
];

function refusal(code: string, message: string): { kind: OperatingErrorKind; advice: string } | undefined {
  return REFUSALS[code] ?? (code === '08P01' ? POOLER_REFUSALS.find((known) => known.message.test(message)) : undefined);
}

/** A failure to connect to the PostgreSQL server at `url` (which is printed without its password). */
export function databaseFailure(error: unknown, url: string): unknown {
  const code = codeOf(error) ?? (error instanceof AggregateError ? codeOf(error.errors[0]) : undefined);
  if (code === undefined) return error;
  const where = `the PostgreSQL server at ${redactDatabaseUrl(url)}`;
  if (UNREACHABLE.has(code))
    return new OperatingError('database-unreachable', `cannot reach ${where} (${code}): start it, or correct DATABASE_URL`, { cause: error });
  const message = (error as Error).message;
  const known = refusal(code, message);
  if (known) return new OperatingError(known.kind, `${where} refused: ${message} (${code}): ${known.advice}`, { cause: error });
  return error;
}

/** Codes meaning a directory cannot be created or written here. */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST']);

/** A failure to create or write the data directory `dataDir` (EARSHOT_DATA_DIR). */
export function dataDirFailure(error: unknown, dataDir: string): unknown {
  const code = codeOf(error);
  const where = pathOf(error) ?? dataDir;
  if (code === undefined || !UNWRITABLE.has(code)) return diskFull(error, where);
  return new OperatingError(
    'data-dir-unwritable',
    `cannot write the data directory ${dataDir} (${code} on ${where}): make it writable by this user, or set EARSHOT_DATA_DIR to a directory it can write`,
    { cause: error },
  );
}

/**
 * A full disk, here (ENOSPC, while writing `where` when known; a used-up quota or a file size limit
 * likewise) or on the PostgreSQL server (SQLSTATE 53100); any other error unchanged.
 */
export function diskFull(error: unknown, where = pathOf(error)): unknown {
  const code = codeOf(error);
  const writing = where ? ` (writing ${where})` : '';
  if (code === 'ENOSPC') return new OperatingError('disk-full', `the disk is full${writing}: free some space, then start again`, { cause: error });
  if (code === 'EDQUOT')
    return new OperatingError('disk-full', `this user's disk quota is used up${writing}: free some space or raise the quota, then start again`, {
      cause: error,
    });
  if (code === 'EFBIG') {
    return new OperatingError(
      'disk-full',
      `a file grew past the largest size allowed here${writing}: raise the file size limit (ulimit -f) or move EARSHOT_DATA_DIR to a file system without one`,
      { cause: error },
    );
  }
  if (code === '53100')
    return new OperatingError('disk-full', "the PostgreSQL server's disk is full: free some space there, then start again", { cause: error });
  return error;
}

/**
 * The embedded database stopping as it starts: postgres, inside WebAssembly, aborts when a write
 * fails (no space, a file size limit, a quota), and the abort says nothing of why.
 */
function embeddedDatabaseAborted(error: unknown, dataDir: string): unknown {
  if (!(error instanceof Error && error.name === 'RuntimeError' && error.message.startsWith('Aborted('))) return error;
  return new OperatingError(
    'embedded-database-aborted',
    `the embedded database in ${dataDir} stopped as it started (postgres aborted), as it does when a write fails: free some space on that disk, or lift the quota or file size limit (ulimit -f), then start again`,
    { cause: error },
  );
}

/** A failure to open storage: the data directory (always used, for the server secret) and, when set, the PostgreSQL server. */
export function storageFailure(error: unknown, dataDir: string, databaseUrl: string | undefined): unknown {
  return dataDirFailure(databaseUrl ? databaseFailure(error, databaseUrl) : embeddedDatabaseAborted(error, dataDir), dataDir);
}
