/** The library's shared reads and the queue changes every view makes (each answers the queue after it). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session.ts';
import { query, type Output } from '../../api/xrpc.ts';
import type { Song } from './logic.ts';

export type Queue = Output<'app.svc.player.getPlaybackQueue'>['queue'];

/** Keys carry the user, so another sign-in in this tab never sees the last user's library. */
export function useLibraryKey(): (...parts: unknown[]) => unknown[] {
  const did = useSession()?.did;
  return (...parts) => ['library', did, ...parts];
}

export function useQueue() {
  const key = useLibraryKey();
  return useQuery({ queryKey: key('queue'), queryFn: () => query('app.svc.player.getPlaybackQueue', {}) });
}

/** A queue change whose answer replaces the cached queue. */
export function useQueueChange<T, A extends { queue: Queue }>(change: (argument: T) => Promise<A>) {
  const client = useQueryClient();
  const key = useLibraryKey();
  return useMutation({ mutationFn: change, onSuccess: (answer) => client.setQueryData(key('queue'), { queue: answer.queue }) });
}

/** Starts playing `entries[index]` (the queue as it is now). */
export type PlayAt = (entries: readonly Song[], index: number) => void;
