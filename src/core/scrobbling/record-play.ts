import { invalidRequest } from '../../toolkit/errors.ts';
import type { AppContext } from '../context.ts';
import { ingestListens, type Listen, type ListenOutcome } from './ingest.ts';
import { listenProblem } from './listen-rules.ts';

/**
 * Records one play a user submits through the API, matched against the catalog like every other
 * submission. A listen no path may store is the caller's mistake: 400, not a quiet 'ignored'.
 */
export async function recordPlay(ctx: AppContext, userId: string, listen: Listen): Promise<ListenOutcome | undefined> {
  const problem = listenProblem(listen);
  if (problem) throw invalidRequest(problem);
  const [outcome] = await ingestListens(ctx, userId, [listen], 'api');
  return outcome;
}
