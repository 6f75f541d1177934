import type { AppContext } from '../../core/context.ts';
import type { Params } from './params.ts';
import type { Element } from './response.ts';
import type { LastfmSession } from './sessions.ts';

/**
 * 'signed' methods are signed with the API key's shared secret; 'session' ones also need `sk`.
 * 'apiKey' ones are reads Last.fm opens to any API key unsigned; a signed `sk` sent along
 * still names the session's user (user.getInfo without `user`).
 */
export type MethodAuth = 'apiKey' | 'signed' | 'session';

export interface MethodCall<A extends MethodAuth> {
  ctx: AppContext;
  params: Params;
  apiKeyId: string;
  session: A extends 'session' ? LastfmSession : A extends 'apiKey' ? LastfmSession | null : null;
}

export interface LastfmMethod<A extends MethodAuth = MethodAuth> {
  /** As Last.fm spells it; clients may use any letter case. */
  name: string;
  /** Last.fm takes writes, and passwords, only by POST. */
  postOnly: boolean;
  auth: A;
  /** The payload inside `<lfm status="ok">`, or null for an empty success. */
  handler(call: MethodCall<A>): Promise<Element | null>;
}

export function defineMethod<A extends MethodAuth>(method: LastfmMethod<A>): LastfmMethod<A> {
  return method;
}
