import type { BackgroundJob } from '../../toolkit/background.ts';
import type { AppContext } from '../context.ts';
import { describePoll, pollStreamingAccounts } from './poller.ts';

export { pollStreamingAccount, pollStreamingAccounts, type PollSummary } from './poller.ts';

/** The streaming poll as a serving process repeats it (background.ts). */
export function musicstreamPollJob(ctx: AppContext): BackgroundJob {
  return {
    name: 'Musicstream',
    intervalMs: ctx.config.providers.pollSeconds * 1000,
    run: async (signal) => describePoll(await pollStreamingAccounts(ctx, signal)),
  };
}
