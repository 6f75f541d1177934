import type { TestApp } from '../../app/testing.ts';
import { ingestListens, type Listen } from './ingest.ts';

export interface TestListener {
  userId: string;
  did: string;
  handle: string;
  token: string;
}

/** A listen for tests: an ISO time and the few fields a test cares about. */
export type TestListen = Omit<Listen, 'listenedAt'> & { at: string };

/** Signs up a user and records their listens through the real ingest service. */
export async function listenerWithHistory(
  app: TestApp,
  handle: string,
  listens: readonly TestListen[] = [],
): Promise<TestListener & { scrobbleIds: string[] }> {
  const account = await app.signup(handle);
  const { id } = await app.ctx.db.selectFrom('users').select('id').where('did', '=', account.did).executeTakeFirstOrThrow();
  const listener = { userId: id, did: account.did, handle: account.handle, token: account.token };
  return { ...listener, scrobbleIds: await recordListens(app, listener, listens) };
}

/** Records listens through the real ingest service; returns the scrobble ids in order. */
export async function recordListens(app: TestApp, listener: TestListener, listens: readonly TestListen[]): Promise<string[]> {
  const outcomes = await ingestListens(
    app.ctx,
    listener.userId,
    listens.map(({ at, ...listen }) => ({ ...listen, listenedAt: new Date(at) })),
    'api',
  );
  return outcomes.map((outcome) => (outcome.status === 'ignored' ? '' : outcome.scrobbleId));
}
