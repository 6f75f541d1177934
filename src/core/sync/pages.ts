/**
 * One step of a sync pass per kind of source: the next page of the user's plays at the service,
 * turned into import listens by the file import's own readers (an export file of ListenBrainz
 * listens or Last.fm recent tracks holds the same records the APIs send), and where the pass goes
 * on. A pass covers the plays listened in [from, to), newest first; `to` is fixed when it starts.
 */
import type { Selectable } from 'kysely';
import type { SyncSourcesTable } from '../../toolkit/db/schema.ts';
import type { AppContext } from '../context.ts';
import { ProviderError } from '../providers/errors.ts';
import { lastfmRecentTracks } from '../providers/lastfm/client.ts';
import { listenbrainzListenCount, listenbrainzListens } from '../providers/listenbrainz/client.ts';
import { lastfmJsonRecord } from '../scrobbling/imports/lastfm.ts';
import { listenBrainzRecord } from '../scrobbling/imports/listenbrainz.ts';
import { isObject, type ForeignRecord, type ImportRecord } from '../scrobbling/imports/records.ts';

export type SourceRow = Selectable<SyncSourcesTable>;

/** What a step fetched: listens to store, records that were not plays, and where the pass goes on. */
export interface Step {
  listens: unknown[];
  ignored: number;
  next: { before?: Date; page?: number };
  done: boolean;
  /** The pass's size as the service counts it, when this step learned it. */
  expected?: number | null;
}

/** ListenBrainz's most listens a page. */
const LB_PAGE = 1000;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function sorted(records: readonly (ImportRecord | ForeignRecord)[]): Pick<Step, 'listens' | 'ignored'> {
  const listens = records.flatMap((record) => ('listen' in record ? [record.listen] : []));
  return { listens, ignored: records.length - listens.length };
}

/** The pass's expected size when it is the whole history: ListenBrainz's listen count. */
export async function expectedPlays(source: SourceRow, from: Date | null): Promise<number | null> {
  if (source.kind !== 'listenbrainz' || from !== null) return null;
  return listenbrainzListenCount(source.base_url!, source.username);
}

/**
 * Walks back by max_ts, a page of up to 1000 listens at a time. ListenBrainz times are whole
 * seconds and max_ts is exclusive, so a full page may end partway through its oldest second: those
 * listens are left for the next page (max_ts = that second + 1), which fetches the whole second
 * again. Nothing is fetched twice into the store and nothing is skipped, without any state beyond
 * the one timestamp, so a resumed pass needs nothing else. Only a full page all of one second (over
 * 1000 plays in one second) cannot be split: it is taken whole and the walk goes on before it.
 */
async function listenbrainzStep(source: SourceRow): Promise<Step> {
  const before = source.pass_before ?? source.pass_to!;
  const page = await listenbrainzListens(source.base_url!, source.username, seconds(before), LB_PAGE);
  const from = source.pass_from ? seconds(source.pass_from) : Number.NEGATIVE_INFINITY;
  const timed = page.listens.map((listen) => ({ listen, at: isObject(listen) ? Number(listen.listened_at) : Number.NaN }));
  const valid = timed.filter(({ at }) => Number.isInteger(at));
  const oldest = Math.min(...valid.map(({ at }) => at));
  const last = page.listens.length < LB_PAGE || valid.length === 0 || oldest < from;
  let taken = timed.filter(({ at }) => !Number.isInteger(at) || at >= from);
  let next = oldest;
  if (!last && valid.some(({ at }) => at !== oldest)) {
    taken = timed.filter(({ at }) => !Number.isInteger(at) || at > oldest);
    next = oldest + 1;
  }
  return { ...sorted(taken.map(({ listen }) => listenBrainzRecord(listen))), next: last ? {} : { before: new Date(next * 1000) }, done: last };
}

/** A track Last.fm lists as playing now: on top of the first page, not a scrobble. */
const playingNow = (track: unknown) => isObject(track) && isObject(track['@attr']) && String(track['@attr'].nowplaying) === 'true';

/** Last.fm's pages of the fixed window, 200 tracks each, from the first (newest). */
async function lastfmStep(ctx: AppContext, source: SourceRow): Promise<Step> {
  const config = ctx.config.relay.lastfm;
  if (!config) throw new ProviderError('NotConfigured', 'lastfm', 'this server has no Last.fm API key (LASTFM_RELAY_API_KEY)');
  const page = source.pass_page ?? 1;
  const answer = await lastfmRecentTracks(config, source.username, {
    page,
    from: source.pass_from ? seconds(source.pass_from) : undefined,
    to: seconds(source.pass_to!),
  });
  const tracks = answer.tracks.filter((track) => !playingNow(track));
  const done = tracks.length === 0 || page >= answer.totalPages;
  return {
    ...sorted(tracks.map(lastfmJsonRecord)),
    next: done ? {} : { page: page + 1 },
    done,
    ...(page === 1 ? { expected: answer.total } : {}),
  };
}

export function nextStep(ctx: AppContext, source: SourceRow): Promise<Step> {
  return source.kind === 'listenbrainz' ? listenbrainzStep(source) : lastfmStep(ctx, source);
}
