/**
 * The background enrichment: each run takes the lease, then looks up a small batch of songs,
 * albums and artists lacking MBIDs, genres, covers or pictures (songs first: their recordings give albums
 * and artists the MBIDs those are looked up by), records how each went, and gives the lease back.
 * It only reads the catalog and fills empty columns row by row, so ingestion never waits on it.
 * A provider failure (MusicBrainz, the archive or Deezer down or refusing) ends the run: the next one tries again.
 */
import { randomUUID } from 'node:crypto';
import type { BackgroundJob } from '../../../toolkit/background.ts';
import type { AppContext } from '../../context.ts';
import type { EnrichmentOutcome, StarKind } from '../../../toolkit/db/index.ts';
import { createCoverArtClient } from '../../providers/coverart/client.ts';
import { createDeezerClient } from '../../providers/deezer/client.ts';
import { ProviderError } from '../../providers/errors.ts';
import { metadataUserAgent } from '../../providers/metadata-fetch.ts';
import { createMusicBrainzClient } from '../../providers/musicbrainz/client.ts';
import type { CoverArtClient, DeezerClient, MusicBrainzClient } from '../../providers/types.ts';
import { databaseCache, pruneCache } from './cache.ts';
import { enrichAlbum, enrichArtist, enrichSong, type Enricher } from './entries.ts';
import { claimLease, releaseLease } from './lease.ts';
import { pendingAlbums, pendingArtists, pendingSongs, recordAttempt } from './pending.ts';

/** Entries of each kind per run: at about a second per request, a run takes a minute or so. */
const BATCH = 10;
const INTERVAL_MS = 60_000;

export interface MetadataClients {
  musicbrainz: MusicBrainzClient;
  coverart: CoverArtClient;
  /** Absent: artist pictures are not looked for. */
  deezer?: DeezerClient | undefined;
}

/** The clients the configuration names, MusicBrainz's answers cached in the database. */
export function metadataClients(ctx: AppContext): MetadataClients {
  const { musicbrainzUrl, coverartUrl, deezerUrl, contact } = ctx.config.enrichment;
  const userAgent = metadataUserAgent(contact);
  return {
    musicbrainz: createMusicBrainzClient({ baseUrl: musicbrainzUrl, userAgent, cache: databaseCache(ctx.db) }),
    coverart: createCoverArtClient({ baseUrl: coverartUrl, userAgent }),
    deezer: deezerUrl ? createDeezerClient({ baseUrl: deezerUrl, userAgent }) : undefined,
  };
}

export type EnrichmentSummary = Record<EnrichmentOutcome, number>;

export type EnrichmentRun = EnrichmentSummary | 'off' | 'busy';

interface Kind<E extends { id: string }> {
  kind: StarKind;
  pending: (enricher: Enricher, limit: number) => Promise<E[]>;
  enrich: (enricher: Enricher, entry: E) => Promise<EnrichmentOutcome>;
}

const kind = <E extends { id: string }>(entry: Kind<E>) => entry as unknown as Kind<{ id: string }>;

/** Songs first, and each kind chosen only once the one before is done: a song's recording gives its album and artist the MBIDs they are then looked up by. */
const KINDS = [
  kind({ kind: 'song', pending: ({ db }, limit) => pendingSongs(db, limit), enrich: enrichSong }),
  kind({ kind: 'album', pending: ({ db }, limit) => pendingAlbums(db, limit), enrich: enrichAlbum }),
  kind({ kind: 'artist', pending: ({ db, deezer }, limit) => pendingArtists(db, limit, deezer !== undefined), enrich: enrichArtist }),
];

/** Enriches one entry and records how it went; a provider failure is recorded, then ends the run. */
async function attempt(enricher: Enricher, { kind, enrich }: Kind<{ id: string }>, entry: { id: string }): Promise<EnrichmentOutcome> {
  try {
    const outcome = await enrich(enricher, entry);
    await recordAttempt(enricher.db, kind, entry.id, outcome);
    return outcome;
  } catch (error) {
    if (error instanceof ProviderError) await recordAttempt(enricher.db, kind, entry.id, 'failed');
    throw error;
  }
}

/** One run: 'off' when EARSHOT_ENRICH is off, 'busy' when another process holds the lease. */
export async function enrichCatalog(ctx: AppContext, options: { clients?: MetadataClients; signal?: AbortSignal } = {}): Promise<EnrichmentRun> {
  if (!ctx.config.enrichment.enabled) return 'off';
  const { db } = ctx;
  const holder = randomUUID();
  if (!(await claimLease(db, holder))) return 'busy';
  const summary: EnrichmentSummary = { enriched: 0, unchanged: 0, 'no-match': 0, failed: 0 };
  try {
    await pruneCache(db);
    const enricher: Enricher = { db, ...(options.clients ?? metadataClients(ctx)), publicUrl: ctx.config.publicUrl };
    for (const entryKind of KINDS) {
      for (const entry of await entryKind.pending(enricher, BATCH)) {
        // The lease is renewed before each entry; losing it (it lapsed, another process took it) ends the run.
        if (options.signal?.aborted || !(await claimLease(db, holder))) return summary;
        summary[await attempt(enricher, entryKind, entry)]++;
      }
    }
  } finally {
    await releaseLease(db, holder);
  }
  return summary;
}

const described = (run: EnrichmentRun) =>
  typeof run === 'string' || run.enriched + run['no-match'] === 0 ? undefined : `${run.enriched} catalog entries enriched, ${run['no-match']} not found`;

export function enrichmentJob(ctx: AppContext): BackgroundJob {
  return { name: 'Enrichment', intervalMs: INTERVAL_MS, run: async (signal) => described(await enrichCatalog(ctx, { signal })) };
}
