/**
 * The server's live events (GET /events, server-sent events): what is playing now and each new
 * play. Read with fetch rather than EventSource, which cannot send the sign-in token; a dropped
 * stream is opened again after a pause, and the caller is told then too, since events may have
 * been missed meanwhile.
 */
import { useEffect, useRef } from 'react';
import { currentToken } from './session.ts';

export interface LiveEvent {
  type: 'nowPlaying' | 'scrobble';
  did: string;
  handle: string;
  title: string;
  artist: string;
}

const RECONNECT_MS = 3_000;

/** Splits a stream's text into events; answers the events complete so far and the rest. */
export function parseEvents(buffer: string): { events: LiveEvent[]; rest: string } {
  const events: LiveEvent[] = [];
  const blocks = buffer.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (!/^event: /m.test(block) || !data) continue;
    try {
      events.push(JSON.parse(data) as LiveEvent);
    } catch {
      // Not ours: skipped.
    }
  }
  return { events, rest };
}

/** Calls `onEvent` for each live event (of one user when `user` is given) while the component is mounted; `null` after a reconnection. */
export function useLiveEvents(onEvent: (event: LiveEvent | null) => void, user?: string): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const connect = async (again: boolean) => {
      try {
        const token = currentToken();
        const response = await fetch(`/events${user ? `?user=${encodeURIComponent(user)}` : ''}`, {
          headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          signal: controller.signal,
        });
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        if (again) handler.current(null);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseEvents(buffer + value);
          buffer = parsed.rest;
          for (const event of parsed.events) handler.current(event);
        }
      } catch {
        // Dropped or refused: tried again below.
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void connect(true), RECONNECT_MS);
    };
    void connect(false);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [user]);
}
