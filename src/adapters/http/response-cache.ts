import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { currentSnapshot } from '../../toolkit/db/index.ts';

/** Bookkeeping a kept answer costs beside its body: the key and snapshot strings, the map entry. */
const ENTRY_OVERHEAD = 128;

const runningKey = (key: string, snapshot: string) => `${snapshot} ${key}`;

interface Entry {
  snapshot: string;
  body: Buffer;
  bytes: number;
}

/**
 * Serialized answers of the queries declared `cache: 'snapshot'`, each with the database snapshot
 * it was computed in (see answerFromCache), the least recently used dropped first once they pass
 * `maxBytes`. Empty until used, so an idle process holds nothing; 0 keeps nothing.
 */
export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  /** Computations under way, by key and the snapshot they started from. */
  readonly #running = new Map<string, Promise<Buffer>>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** What the kept answers cost, as counted against maxBytes. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The body kept under `key` if it was computed in `snapshot`. */
  get(key: string, snapshot: string): Buffer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.snapshot !== snapshot) {
      // A snapshot never comes back once another has been read (commits only move it on): a
      // mismatched entry can never match again.
      this.#delete(key, entry);
      return undefined;
    }
    this.#entries.delete(key);
    this.#entries.set(key, entry); // last: the most recently used
    return entry.body;
  }

  set(key: string, snapshot: string, body: Buffer): void {
    const bytes = body.byteLength + 2 * (key.length + snapshot.length) + ENTRY_OVERHEAD;
    const old = this.#entries.get(key);
    if (old) this.#delete(key, old);
    if (bytes > this.maxBytes) return;
    this.#entries.set(key, { snapshot, body, bytes });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#delete(oldest, entry);
    }
  }

  /** The computation of `key` in `snapshot` under way, if one is. */
  computing(key: string, snapshot: string): Promise<Buffer> | undefined {
    return this.#running.get(runningKey(key, snapshot));
  }

  /** Runs `compute` as the computation of `key` in `snapshot`, keeping its body if it says so. */
  compute(key: string, snapshot: string, compute: () => Promise<{ body: Buffer; keep: boolean }>): Promise<Buffer> {
    const running = runningKey(key, snapshot);
    const body = compute().then(({ body, keep }) => {
      if (keep) this.set(key, snapshot, body);
      return body;
    });
    this.#running.set(running, body);
    const done = () => void this.#running.delete(running);
    body.then(done, done);
    return body;
  }

  #delete(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The answer's bytes, kept or computed. One statement reads the database's snapshot: if it is the
 * one the kept answer was computed in, nothing has committed since, so the same reads would see
 * the same rows, and the kept bytes are the answer. Otherwise `compute` runs, serialized by the
 * route's own serializer, and is kept only if the snapshot is still the same once it is done:
 * then no commit fell between its statements either (they all saw the first reading's data), and
 * a handler that wrote something is never kept. Several processes, a pooler in transaction mode
 * and the embedded database's one connection all hold to this, as snapshots are the database's.
 *
 * Requests for the same key that read the same snapshot while it is being computed wait for that
 * computation instead of repeating it (after a write, every client polling a feed would otherwise
 * recompute it at once). Its answer is one each of them could have got: whatever had committed
 * before any of them arrived is in the snapshot they share, so the computation, which started
 * after that reading, sees it.
 */
export async function answerFromCache(
  cache: ResponseCache,
  key: string,
  ctx: Pick<AppContext, 'db' | 'metrics'>,
  nsid: string,
  reply: FastifyReply,
  compute: () => Promise<unknown>,
): Promise<Buffer> {
  const { db } = ctx;
  const snapshot = await currentSnapshot(db);
  const kept = cache.get(key, snapshot);
  const running = kept ? undefined : cache.computing(key, snapshot);
  ctx.metrics.answerCached(nsid, kept ? 'hit' : running ? 'joined' : 'miss');
  const body =
    kept ??
    (await (running ??
      cache.compute(key, snapshot, async () => {
        // The route's serializer (fast-json-stringify from the output schema) answers a string.
        const computed = Buffer.from(reply.serialize(await compute()) as string);
        return { body: computed, keep: (await currentSnapshot(db)) === snapshot };
      })));
  reply.type(JSON_TYPE);
  return body;
}
