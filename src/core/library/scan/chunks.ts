/** Runs `work` on consecutive slices of `items`, one slice at a time (statements stay within parameter limits). */
export async function inChunks<T>(items: readonly T[], size: number, work: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let at = 0; at < items.length; at += size) await work(items.slice(at, at + size));
}
