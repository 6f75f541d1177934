/** The `app.svc.sync` group: pulling the caller's plays in from their ListenBrainz or Last.fm account (core/sync). */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { DateTime, Empty, isoDateTime, Uuid } from '../../toolkit/schemas.ts';
import { addSource, getSourceStatus, listSources, removeSource, runNow, setPaused, type SourceStatus } from '../../core/sync/sources.ts';

const Kind = Type.Union([Type.Literal('listenbrainz'), Type.Literal('lastfm')], {
  description: 'listenbrainz (any ListenBrainz server, another Earshot’s scrobbler host too), lastfm (read with the server operator’s Last.fm API key)',
});
const Nullable = <T extends ReturnType<typeof DateTime> | ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T) =>
  Type.Union([schema, Type.Null()]);

const SourceView = Type.Object({
  id: Uuid(),
  kind: Kind,
  username: Type.String(),
  baseUrl: Nullable(Type.String()),
  state: Type.Union([Type.Literal('initial'), Type.Literal('incremental'), Type.Literal('paused'), Type.Literal('error')], {
    description:
      'initial: pulling the whole history; incremental: up to date, looking for new plays on a schedule; paused; error: the last run failed (retried with backoff)',
  }),
  running: Type.Boolean({ description: 'a run holds the source now' }),
  pass: Type.Union([
    Type.Object(
      {
        fetched: Type.Integer({ description: 'plays fetched in this pass so far' }),
        expected: Nullable(Type.Integer({ description: 'how many plays the service says the pass holds, when it says' })),
        from: Nullable(DateTime()),
        to: DateTime(),
      },
      { description: 'the pass in progress: plays listened from `from` (null: the beginning) to `to`' },
    ),
    Type.Null(),
  ]),
  historyDoneAt: Nullable(DateTime({ description: 'when the whole history had been pulled' })),
  syncedUntil: Nullable(DateTime({ description: 'the end of the last finished pass' })),
  fetched: Type.Integer(),
  stored: Type.Integer(),
  duplicate: Type.Integer({ description: 'plays the account already had (the one duplicate rule)' }),
  ignored: Type.Integer({ description: 'records that are not plays Earshot can store' }),
  nextRunAt: Nullable(DateTime()),
  lastRunAt: Nullable(DateTime()),
  lastSuccessAt: Nullable(DateTime()),
  lastError: Nullable(Type.String()),
  lastErrorAt: Nullable(DateTime()),
});

const date = (value: Date | null) => value && isoDateTime(value);

function sourceView(source: SourceStatus) {
  return {
    ...source,
    pass: source.pass && { ...source.pass, from: date(source.pass.from), to: isoDateTime(source.pass.to) },
    historyDoneAt: date(source.historyDoneAt),
    syncedUntil: date(source.syncedUntil),
    nextRunAt: date(source.nextRunAt),
    lastRunAt: date(source.lastRunAt),
    lastSuccessAt: date(source.lastSuccessAt),
    lastErrorAt: date(source.lastErrorAt),
  };
}

const SourceId = Type.Object({ id: Uuid() });

const listSourcesOperation = defineQuery({
  nsid: 'app.svc.sync.listSources',
  summary: "The caller's sync sources, each with its progress",
  auth: 'account',
  output: Type.Object({ sources: Type.Array(SourceView) }),
  async handler({ viewer, ctx }) {
    return { sources: (await listSources(ctx, viewer.userId)).map(sourceView) };
  },
});

const getSourceStatusOperation = defineQuery({
  nsid: 'app.svc.sync.getSourceStatus',
  summary: 'One sync source and its progress',
  auth: 'account',
  params: SourceId,
  output: SourceView,
  errors: ['NotFound'],
  async handler({ params, viewer, ctx }) {
    return sourceView(await getSourceStatus(ctx, viewer.userId, params.id));
  },
});

const addSourceOperation = defineProcedure({
  nsid: 'app.svc.sync.addSource',
  summary: "Pull a ListenBrainz or Last.fm user's plays into the caller's: the whole history, then new plays on a schedule",
  auth: 'account',
  input: Type.Object({
    kind: Kind,
    username: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\s/?#]+$', description: 'the user’s name at the service' }),
    baseUrl: Type.Optional(
      Type.String({ maxLength: 2048, description: 'listenbrainz: the server’s API root (default: the server’s LISTENBRAINZ_URL); none for lastfm' }),
    ),
  }),
  output: SourceView,
  errors: ['EntryExists', 'LimitExceeded', 'ProviderNotConfigured'],
  async handler({ input, viewer, ctx }) {
    return sourceView(await addSource(ctx, viewer.userId, input));
  },
});

const removeSourceOperation = defineProcedure({
  nsid: 'app.svc.sync.removeSource',
  summary: 'Stop syncing from a source; the plays it brought stay',
  auth: 'account',
  input: SourceId,
  output: Empty,
  errors: ['NotFound'],
  async handler({ input, viewer, ctx }) {
    await removeSource(ctx, viewer.userId, input.id);
    return {};
  },
});

const runNowOperation = defineProcedure({
  nsid: 'app.svc.sync.runNow',
  summary: 'Look for new plays now (a failing source skips its backoff; a paused one resumes)',
  auth: 'account',
  input: SourceId,
  output: SourceView,
  errors: ['NotFound'],
  async handler({ input, viewer, ctx }) {
    return sourceView(await runNow(ctx, viewer.userId, input.id));
  },
});

const setPausedOperation = defineProcedure({
  nsid: 'app.svc.sync.setPaused',
  summary: 'Pause or resume a source; it keeps its place',
  auth: 'account',
  input: Type.Object({ id: Uuid(), paused: Type.Boolean() }),
  output: SourceView,
  errors: ['NotFound'],
  async handler({ input, viewer, ctx }) {
    return sourceView(await setPaused(ctx, viewer.userId, input.id, input.paused));
  },
});

export const syncOperations = [listSourcesOperation, getSourceStatusOperation, addSourceOperation, removeSourceOperation, runNowOperation, setPausedOperation];
