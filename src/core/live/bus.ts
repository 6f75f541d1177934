/**
 * Live events: what is playing now and each new play, told to the clients listening on this
 * process (the /events stream) and, through a transport, to those of every other process on the
 * same database. Events are published once the play or now-playing has committed, so none is ever
 * told of a play that was rolled back. Delivery is best-effort: a client that misses one reads the
 * feed again (the web app does when it reconnects).
 */
import type { AppContext } from '../context.ts';

export interface LivePlay {
  did: string;
  handle: string;
  trackId: string;
  artist: string;
  title: string;
  album: string | null;
}

export type LiveEvent = ({ type: 'nowPlaying'; since: string } | { type: 'scrobble'; scrobbleId: string; listenedAt: string }) & LivePlay;

/** An event as it travels between processes: whose it is, for the streams that ask for one user's. */
export interface LiveMessage {
  userId: string;
  event: LiveEvent;
}

export type LiveListener = (message: LiveMessage) => void;

/** Carries messages between the processes sharing one database (Redis pub/sub or PostgreSQL NOTIFY); each process hears its own too. */
export interface LiveTransport {
  publish(text: string): Promise<void>;
  close(): Promise<void>;
}

export class LiveBus {
  private readonly listeners = new Set<LiveListener>();
  private transport: LiveTransport | null = null;

  /** From now on, messages go through `transport`, whose incoming ones the caller hands to `deliver`. */
  useTransport(transport: LiveTransport | null): void {
    this.transport = transport;
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every process (this one through the transport too, so each hears events in one order). */
  async publish(message: LiveMessage): Promise<void> {
    if (!this.transport) return this.deliver(JSON.stringify(message));
    try {
      await this.transport.publish(JSON.stringify(message));
    } catch {
      // The transport is away: this process's clients still hear it.
      this.deliver(JSON.stringify(message));
    }
  }

  /** A message that arrived, to this process's listeners; anything unreadable is dropped. */
  deliver(text: string): void {
    let message: LiveMessage;
    try {
      message = JSON.parse(text) as LiveMessage;
    } catch {
      return;
    }
    if (typeof message?.userId !== 'string' || typeof message.event?.type !== 'string') return;
    for (const listener of this.listeners) listener(message);
  }
}

/** One bus per context, so one per process and database. */
const buses = new WeakMap<AppContext, LiveBus>();

export function liveBusOf(ctx: AppContext): LiveBus {
  let bus = buses.get(ctx);
  if (!bus) {
    bus = new LiveBus();
    buses.set(ctx, bus);
  }
  return bus;
}
