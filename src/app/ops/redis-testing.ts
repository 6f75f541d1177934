import net from 'node:net';

/** The Redis the tests use: TEST_REDIS_URL, else the local default. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

/**
 * Whether that Redis accepts connections. Without it the suites that need one are skipped on a
 * developer's machine, but under CI=true a missing Redis fails the run rather than hiding tests.
 */
export async function testRedisReachable(): Promise<boolean> {
  const { hostname, port } = new URL(TEST_REDIS_URL);
  const reachable = await new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  if (!reachable && process.env.CI === 'true') throw new Error(`no Redis at ${TEST_REDIS_URL}: CI needs it for the shared rate-limit tests`);
  return reachable;
}
