/** A server-sent events client for the tests: reads /events as a browser would and keeps each event. */

export interface LiveEventClient {
  readonly events: { type: string; data: Record<string, unknown> }[];
  /** Resolves with the first event (already received or to come) that `match` accepts. */
  next(
    match: (event: { type: string; data: Record<string, unknown> }) => boolean,
    timeoutMs?: number,
  ): Promise<{ type: string; data: Record<string, unknown> }>;
  close(): void;
}

export async function openLiveEvents(url: string, headers: Record<string, string> = {}): Promise<LiveEventClient> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  const events: LiveEventClient['events'] = [];
  const waiting = new Set<() => void>();
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (type && data) events.push({ type, data: JSON.parse(data) as Record<string, unknown> });
        }
        for (const wake of waiting) wake();
      }
    } catch {
      // Closed by the test.
    }
  })();
  return {
    events,
    next(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const look = () => {
          const found = events.find(match);
          if (!found) return;
          waiting.delete(look);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiting.delete(look);
          reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`));
        }, timeoutMs);
        waiting.add(look);
        look();
      });
    },
    close: () => controller.abort(),
  };
}
