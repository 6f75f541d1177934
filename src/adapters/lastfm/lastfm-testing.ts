import type { HttpResult, TestApp } from '../../app/testing.ts';
import { jsonRequest } from '../../app/testing.ts';
import { lastfmSignature } from './signature.ts';

/** A user with an API key, as a scrobbler client would be set up. */
export interface ClientAccount {
  handle: string;
  password: string;
  userId: string;
  token: string;
  apiKeyId: string;
  key: string;
  sharedSecret: string;
}

export async function createClientAccount(app: TestApp, handle: string, password = 'correct horse battery'): Promise<ClientAccount> {
  const { token } = await app.signup(handle, password);
  const created = await app.procedure('app.svc.apikey.createApikey', { name: `${handle} player` }, token);
  if (created.status !== 200) throw new Error(`createApikey failed: ${JSON.stringify(created.body)}`);
  const user = await app.ctx.db.selectFrom('users').select('id').where('handle', '=', handle).executeTakeFirstOrThrow();
  return { handle, password, userId: user.id, token, apiKeyId: created.body.id, key: created.body.key, sharedSecret: created.body.sharedSecret };
}

export interface CallOptions {
  httpMethod?: 'GET' | 'POST';
  /** Signs with this secret; false sends no api_sig. */
  secret?: string | false;
}

/** Where Last.fm calls go: a test app, or a scrobbler host's address (a server process's). */
export type ScrobblerHost = Pick<TestApp, 'scrobblerUrl'>;

/** A Last.fm 2.0 call to /2.0/, signed the way Last.fm clients sign. */
export function lastfmCall(app: ScrobblerHost, params: Record<string, string>, options: CallOptions = {}): Promise<HttpResult> {
  const signed = new Map(Object.entries(params));
  if (options.secret) signed.set('api_sig', lastfmSignature(signed, options.secret));
  const body = new URLSearchParams([...signed]).toString();
  const url = `${app.scrobblerUrl}/2.0/`;
  if (options.httpMethod === 'GET') return jsonRequest(`${url}?${body}`, 'GET');
  return jsonRequest(url, 'POST', { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
}

/** A session key for the account, from auth.getMobileSession. */
export async function mobileSession(app: ScrobblerHost, account: Pick<ClientAccount, 'handle' | 'password' | 'key' | 'sharedSecret'>): Promise<string> {
  const params = { method: 'auth.getMobileSession', username: account.handle, password: account.password, api_key: account.key, format: 'json' };
  const result = await lastfmCall(app, params, { secret: account.sharedSecret });
  if (result.status !== 200) throw new Error(`getMobileSession failed: ${JSON.stringify(result.body)}`);
  return result.body.session.key;
}

export interface Play {
  artist: string;
  track: string;
  album?: string;
  mbid?: string;
  duration?: number;
  /** UNIX seconds. */
  timestamp: number;
}

/** Stores plays through track.scrobble, as a client would. */
export async function scrobblePlays(
  app: ScrobblerHost,
  account: Pick<ClientAccount, 'key' | 'sharedSecret'>,
  sessionKey: string,
  plays: Play[],
): Promise<void> {
  const params: Record<string, string> = { method: 'track.scrobble', api_key: account.key, sk: sessionKey, format: 'json' };
  plays.forEach((play, i) => {
    for (const [name, value] of Object.entries(play)) if (value !== undefined) params[`${name}[${i}]`] = String(value);
  });
  const result = await lastfmCall(app, params, { secret: account.sharedSecret });
  if (result.status !== 200 || result.body.scrobbles['@attr'].ignored !== 0) throw new Error(`scrobble failed: ${JSON.stringify(result.body)}`);
}

/** A read as a client without the shared secret sends it: a GET with the API key only. */
export function lastfmRead(app: ScrobblerHost, account: Pick<ClientAccount, 'key'>, params: Record<string, string>): Promise<HttpResult> {
  return lastfmCall(app, { api_key: account.key, ...params }, { httpMethod: 'GET' });
}
