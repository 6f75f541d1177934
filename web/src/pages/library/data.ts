/** The library's shared reads and the queue changes every view makes (each reads the queue again after it). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session.ts';
import { query, type Output } from '../../api/xrpc.ts';
import { wholeQueue, type Song } from './logic.ts';

export type Queue = Output<'app.svc.player.getPlaybackQueue'>['queue'];

/** Keys carry the user, so another sign-in in this tab never sees the last user's library. */
export function useLibraryKey(): (...parts: unknown[]) => unknown[] {
  const did = useSession()?.did;
  return (...parts) => ['library', did, ...parts];
}

/** The server's largest getPlaybackQueue page. */
const QUEUE_PAGE = 1000;

/** The player moves through the whole queue, so it is read whole, a page at a time. */
const readQueue = async () => ({
  queue: await wholeQueue((offset) => query('app.svc.player.getPlaybackQueue', { offset, limit: QUEUE_PAGE }).then((answer) => answer.queue)),
});

export function useQueue() {
  const key = useLibraryKey();
  return useQuery({ queryKey: key('queue'), queryFn: readQueue });
}

/**
 * A queue change. Its answer says only where the queue stands, so the queue is read again before
 * the change counts as done: the answer's `queue` is then the whole queue after it.
 */
export function useQueueChange<T, A extends object>(change: (argument: T) => Promise<A>) {
  const client = useQueryClient();
  const key = useLibraryKey();
  return useMutation({
    mutationFn: async (argument: T) => {
      const answer = await change(argument);
      const { queue } = await client.fetchQuery({ queryKey: key('queue'), queryFn: readQueue, staleTime: 0 });
      return { ...answer, queue };
    },
  });
}

/** Starts playing `entries[index]` (the queue as it is now). */
export type PlayAt = (entries: readonly Song[], index: number) => void;
