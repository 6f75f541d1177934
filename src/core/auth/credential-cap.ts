import type { Transaction } from 'kysely';
import { XrpcError } from '../../toolkit/errors.ts';
import type { DB } from '../../toolkit/db/index.ts';

/**
 * How many API keys, and how many personal access tokens, one account may hold: far more than the
 * players and scripts of any listener, and a bound on credentials minted one after another.
 */
export const MAX_CREDENTIALS_PER_ACCOUNT = 50;

/**
 * Inside the transaction that creates one: refuses (409 LimitExceeded) a new credential to an
 * account that holds the maximum. The user's row is locked first, so concurrent creations are
 * counted one after another rather than each seeing room for itself.
 */
export async function ensureRoomForCredential(tx: Transaction<DB>, table: 'api_keys' | 'access_tokens', userId: string, what: string): Promise<void> {
  await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
  const { count } = await tx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) >= MAX_CREDENTIALS_PER_ACCOUNT) {
    throw new XrpcError(
      409,
      'LimitExceeded',
      `An account may hold at most ${MAX_CREDENTIALS_PER_ACCOUNT} ${what}; remove one it no longer uses, then try again`,
    );
  }
}
