import type { AppContext } from '../context.ts';
import { listenbrainzRoot, listenbrainzTokenUser } from '../providers/listenbrainz/client.ts';
import { openTargetSecret } from '../relay/targets.ts';
import type { SourceRow } from './pages.ts';

const same = (a: string | null, b: string) => a !== null && a.toLowerCase() === b.toLowerCase();

/**
 * The user's relay target at the service and account a source pulls from, if any: the plays the
 * sync stores carry its id (scrobbles.origin_target), and the relay outbox skips the target a play
 * came from, so a play is never sent back where it was found.
 *
 * Why the link is found per run rather than kept on the source: relay targets and sync sources
 * come and go independently, and only the targets that exist when a play is stored matter (relay
 * queues a play once, as it is stored). A Last.fm target names its account once linked; a
 * ListenBrainz (or Earshot) target keeps only a token, so its account is asked of the server
 * (validate-token). A target whose account cannot be told (the server is down, the token no longer
 * opens) counts as the same account: sending a play back to where it came from is the one mistake
 * this exists to prevent, and relaying these plays elsewhere is unaffected.
 */
export async function originTarget(ctx: AppContext, source: SourceRow): Promise<string | null> {
  const targets = await ctx.db
    .selectFrom('relay_targets')
    .select(['id', 'kind', 'base_url', 'account_name', 'secret_sealed'])
    .where('user_id', '=', source.user_id)
    .where('kind', 'in', source.kind === 'lastfm' ? ['lastfm'] : ['listenbrainz', 'earshot'])
    .orderBy('created_at')
    .execute();
  for (const target of targets) {
    if (source.kind === 'lastfm') {
      if (same(target.account_name, source.username)) return target.id;
      continue;
    }
    if (!target.base_url || listenbrainzRoot(target.base_url) !== listenbrainzRoot(source.base_url!)) continue;
    const token = target.secret_sealed && openTargetSecret(ctx, source.user_id, target.id, target.secret_sealed);
    const account = token ? await listenbrainzTokenUser(target.base_url, token).catch(() => undefined) : undefined;
    if (account === undefined || same(account, source.username)) return target.id;
  }
  return null;
}
