import { jsonRequest, type RequestOptions, type TestApp } from '../../app/testing.ts';
import { ingestListens } from '../../core/scrobbling/ingest.ts';

/** A user with an Earshot API key, the token ListenBrainz clients send. */
export interface LbUser {
  handle: string;
  userId: string;
  key: string;
  /** The sign-in JWT, which is not a ListenBrainz token. */
  token: string;
}

export async function lbUser(app: TestApp, handle: string): Promise<LbUser> {
  const { token } = await app.signup(handle);
  const created = await app.procedure('app.svc.apikey.createApikey', { name: 'ListenBrainz client' }, token);
  const { id } = await app.ctx.db.selectFrom('users').select('id').where('handle', '=', handle).executeTakeFirstOrThrow();
  return { handle, userId: id, key: created.body.key, token };
}

/** A request to the scrobbler host's ListenBrainz API. */
export function lb<T = any>(app: TestApp, method: string, path: string, options: RequestOptions = {}) {
  return jsonRequest<T>(`${app.scrobblerUrl}/1${path}`, method, options);
}

/** The same request with the user's token. */
export function lbAs<T = any>(app: TestApp, user: LbUser, method: string, path: string, body?: unknown) {
  return lb<T>(app, method, path, { body, headers: { authorization: `Token ${user.key}` } });
}

/** Stores plays of (artist, title, album) at the given times, as any client would. */
export async function play(app: TestApp, user: LbUser, plays: { artist: string; title: string; album?: string; at: Date }[]): Promise<void> {
  await ingestListens(
    app.ctx,
    user.userId,
    plays.map(({ at, ...track }) => ({ ...track, listenedAt: at })),
    'api',
  );
}
