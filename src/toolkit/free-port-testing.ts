import net from 'node:net';

/**
 * A loopback port free right now, for a test whose server must be told its port before it listens
 * (its public URLs, or a CLI pointed at it): a fixed or pid-derived port can be some other
 * process's, even an ephemeral one of another test's connection.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
