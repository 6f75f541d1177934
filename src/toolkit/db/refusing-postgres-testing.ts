import net from 'node:net';

/** What the fake answers a connection with: a FATAL ErrorResponse, after asking for a password when `password` is set. */
export interface Refusal {
  code: string;
  message: string;
  /** Ask for a cleartext password first, as a server refusing it (28P01) does. */
  password?: boolean;
}

export interface RefusingPostgres {
  /** postgres://… on loopback, the user and password given. */
  url(user?: string, password?: string): string;
  /** The startup parameters each connection sent (user, database, options, …). */
  startups: Record<string, string>[];
  close(): Promise<void>;
}

const SSL_REQUEST = 80_877_103;

/** A PostgreSQL backend message: its type byte, its length and its body. */
function message(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from(type), length, body]);
}

function errorResponse({ code, message: text }: Refusal): Buffer {
  const field = (name: string, value: string) => Buffer.from(`${name}${value}\0`);
  return message('E', Buffer.concat([field('S', 'FATAL'), field('V', 'FATAL'), field('C', code), field('M', text), Buffer.from([0])]));
}

function parameters(body: Buffer): Record<string, string> {
  const parts = body.subarray(4).toString('utf8').split('\0');
  const result: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) result[parts[i]!] = parts[i + 1]!;
  return result;
}

/**
 * A loopback server speaking just enough of PostgreSQL's wire protocol (v3) to refuse a connection
 * the way a server or a pooler does, for refusals a real local server cannot be made to give
 * (a password where pg_hba.conf trusts everyone, PgBouncer's unsupported startup parameter).
 */
export async function startRefusingPostgres(refusal: Refusal): Promise<RefusingPostgres> {
  const startups: Record<string, string>[] = [];
  const server = net.createServer((socket) => {
    let pending = Buffer.alloc(0);
    let started = false;
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      if (!started) {
        if (pending.length < 8 || pending.length < pending.readInt32BE(0)) return;
        const length = pending.readInt32BE(0);
        const body = pending.subarray(4, length);
        pending = pending.subarray(length);
        if (body.readInt32BE(0) === SSL_REQUEST) return void socket.write('N');
        started = true;
        startups.push(parameters(body));
        if (!refusal.password) return void socket.end(errorResponse(refusal));
        // AuthenticationCleartextPassword; whatever password comes back is refused.
        return void socket.write(message('R', Buffer.from([0, 0, 0, 3])));
      }
      if (pending.length >= 5 && pending[0] === 'p'.charCodeAt(0)) socket.end(errorResponse(refusal));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: (user = 'earshot', password = 'not-the-password') => `postgres://${user}:${password}@127.0.0.1:${port}/earshot`,
    startups,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
