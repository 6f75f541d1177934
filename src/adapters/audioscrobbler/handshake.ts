import type { AppContext } from '../../core/context.ts';
import { authenticateApiKey, findUserByActor, sharedSecretFor } from '../../core/auth/index.ts';
import { md5Hex } from '../../core/auth/hashing.ts';
import { apiKeyProvenByDigest } from '../../core/auth/audioscrobbler-digest.ts';
import { digestsEqual, findLastfmSession, InvalidParameter, requiredParam, type Params } from '../lastfm/index.ts';
import { createAudioscrobblerSession } from './sessions.ts';

const SUPPORTED_PROTOCOL = /^1\.2(\.1)?$/;
/** The handshake timestamp is its only replay protection, yet portable players keep poor clocks. */
const CLOCK_TOLERANCE_MS = 30 * 60 * 1000;

export type HandshakeResult = { status: 'OK'; sessionId: string } | { status: 'BADAUTH' | 'BADTIME' };

interface Credential {
  userId: string;
  apiKeyId: string;
}

/** Standard authentication: a = md5(md5(password) + t), the password being one of the user's API keys. */
async function byApiKeyPassword(ctx: AppContext, user: string, timestamp: string, auth: string): Promise<Credential | null> {
  const account = await findUserByActor(ctx.db, user);
  if (!account) return null;
  const apiKeyId = await apiKeyProvenByDigest(ctx.db, ctx.keys.encryption, account.id, (digest) => digestsEqual(auth, md5Hex(digest + timestamp)));
  return apiKeyId ? { userId: account.id, apiKeyId } : null;
}

/** Web-services authentication (1.2.1): a Last.fm session key, and a = md5(shared secret + t). */
async function byLastfmSession(ctx: AppContext, params: Params, user: string, timestamp: string, auth: string): Promise<Credential | null> {
  const owner = await authenticateApiKey(ctx.db, params.get('api_key') ?? '');
  if (!owner) return null;
  const session = await findLastfmSession(ctx.db, params.get('sk') ?? '', owner.apiKeyId);
  const account = session && (await findUserByActor(ctx.db, user));
  if (!session || account?.id !== session.userId) return null;
  const expected = md5Hex(sharedSecretFor(ctx.keys.apiKeySharedSecret, owner.apiKeyId) + timestamp);
  return digestsEqual(auth, expected) ? { userId: session.userId, apiKeyId: owner.apiKeyId } : null;
}

/** `?hs=true&p=1.2&c=…&v=…&u=…&t=…&a=…` (plus `api_key` and `sk` for web-services auth). */
export async function handshake(ctx: AppContext, params: Params): Promise<HandshakeResult> {
  const protocol = requiredParam(params, 'p');
  if (!SUPPORTED_PROTOCOL.test(protocol)) throw new InvalidParameter(`protocol ${protocol} is not supported; use 1.2 or 1.2.1`);
  requiredParam(params, 'c');
  requiredParam(params, 'v');
  const user = requiredParam(params, 'u');
  const timestamp = requiredParam(params, 't');
  const auth = requiredParam(params, 'a');
  if (!/^\d{1,11}$/.test(timestamp)) throw new InvalidParameter('t must be a UNIX timestamp');
  if (Math.abs(Number(timestamp) * 1000 - Date.now()) > CLOCK_TOLERANCE_MS) return { status: 'BADTIME' };
  const credential = params.has('sk') ? await byLastfmSession(ctx, params, user, timestamp, auth) : await byApiKeyPassword(ctx, user, timestamp, auth);
  if (!credential) return { status: 'BADAUTH' };
  return { status: 'OK', sessionId: await createAudioscrobblerSession(ctx.db, credential.userId, credential.apiKeyId) };
}
