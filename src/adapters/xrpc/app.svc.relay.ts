/** The `app.svc.relay` group: relaying the caller's plays out to other scrobbling services (core/relay). */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { DateTime, Empty, isoDateTime, Uuid } from '../../toolkit/schemas.ts';
import { addTarget, getTargetStatus, listTargets, removeTarget, retryDeadLetters, type TargetStatus } from '../../core/relay/targets.ts';
import { lastfmBindingCookie, startLastfmLink } from '../../core/relay/lastfm-link.ts';

const Kind = Type.Union([Type.Literal('listenbrainz'), Type.Literal('lastfm'), Type.Literal('maloja'), Type.Literal('earshot')], {
  description:
    'listenbrainz (any ListenBrainz server), lastfm (through the server operator’s Last.fm application), maloja, earshot (another Earshot, over its ListenBrainz API)',
});
const Nullable = <T extends ReturnType<typeof DateTime> | ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const TargetView = Type.Object({
  id: Uuid(),
  kind: Kind,
  name: Type.String(),
  baseUrl: Nullable(Type.String()),
  linked: Type.Boolean({ description: 'whether the target has its credential; a Last.fm target is linked with linkLastfm' }),
  accountName: Nullable(Type.String()),
  relayImports: Type.Boolean(),
  importsFrom: Nullable(DateTime()),
  importsUntil: Nullable(DateTime()),
  lastSuccessAt: Nullable(DateTime()),
  lastError: Nullable(Type.String()),
  lastErrorAt: Nullable(DateTime()),
  queued: Type.Integer({ description: 'plays, and deletions of plays, waiting to be delivered' }),
  deadLetterCount: Type.Integer({ description: 'plays (or deletions) the target refused or that ran out of tries' }),
  deadLetters: Type.Array(
    Type.Object({
      scrobbleId: Uuid(),
      action: Type.Union([Type.Literal('scrobble'), Type.Literal('delete')], { description: 'the play, or its deletion' }),
      artist: Type.String(),
      title: Type.String(),
      listenedAt: Type.String(),
      state: Type.Union([Type.Literal('refused'), Type.Literal('dead')]),
      error: Nullable(Type.String()),
    }),
    { description: 'the newest 20' },
  ),
});

const date = (value: Date | null) => value && isoDateTime(value);

function targetView(target: TargetStatus) {
  return {
    ...target,
    importsFrom: date(target.importsFrom),
    importsUntil: date(target.importsUntil),
    lastSuccessAt: date(target.lastSuccessAt),
    lastErrorAt: date(target.lastErrorAt),
  };
}

const TargetId = Type.Object({ id: Uuid() });

const listTargetsOperation = defineQuery({
  nsid: 'app.svc.relay.listTargets',
  summary: "The caller's relay targets, each with its state: last success, queue length, dead letters",
  auth: 'account',
  output: Type.Object({ targets: Type.Array(TargetView) }),
  async handler({ viewer, ctx }) {
    return { targets: (await listTargets(ctx, viewer.userId)).map(targetView) };
  },
});

const getTargetStatusOperation = defineQuery({
  nsid: 'app.svc.relay.getTargetStatus',
  summary: 'One relay target and its state',
  auth: 'account',
  params: TargetId,
  output: TargetView,
  errors: ['NotFound'],
  async handler({ params, viewer, ctx }) {
    return targetView(await getTargetStatus(ctx, viewer.userId, params.id));
  },
});

const addTargetOperation = defineProcedure({
  nsid: 'app.svc.relay.addTarget',
  summary: 'Relay every play stored from now on to another scrobbling service (imports only when relayImports, inside the window)',
  auth: 'account',
  input: Type.Object({
    kind: Kind,
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    baseUrl: Type.Optional(
      Type.String({
        maxLength: 2048,
        description: 'the server’s address (ListenBrainz API root, Maloja, the other Earshot’s scrobbler host); none for lastfm',
      }),
    ),
    secret: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'ListenBrainz token, Maloja or Earshot API key; none for lastfm' })),
    relayImports: Type.Optional(Type.Boolean({ description: 'relay imported plays too (default false)' })),
    importsFrom: Type.Optional(DateTime({ description: 'only imported plays listened at or after this' })),
    importsUntil: Type.Optional(DateTime({ description: 'only imported plays listened before this' })),
  }),
  output: TargetView,
  errors: ['LimitExceeded', 'ProviderNotConfigured'],
  async handler({ input, viewer, ctx }) {
    const target = await addTarget(ctx, viewer.userId, {
      ...input,
      name: input.name.trim(),
      importsFrom: input.importsFrom === undefined ? undefined : new Date(input.importsFrom),
      importsUntil: input.importsUntil === undefined ? undefined : new Date(input.importsUntil),
    });
    return targetView(target);
  },
});

const removeTargetOperation = defineProcedure({
  nsid: 'app.svc.relay.removeTarget',
  summary: 'Stop relaying to a target; its queue and dead letters go with it',
  auth: 'account',
  input: TargetId,
  output: Empty,
  errors: ['NotFound'],
  async handler({ input, viewer, ctx }) {
    await removeTarget(ctx, viewer.userId, input.id);
    return {};
  },
});

const retryDeadLettersOperation = defineProcedure({
  nsid: 'app.svc.relay.retryDeadLetters',
  summary: "Send a target's dead letters again, with fresh tries",
  auth: 'account',
  input: TargetId,
  output: Type.Object({ requeued: Type.Integer() }),
  errors: ['NotFound'],
  async handler({ input, viewer, ctx }) {
    return { requeued: await retryDeadLetters(ctx, viewer.userId, input.id) };
  },
});

const linkLastfmOperation = defineProcedure({
  nsid: 'app.svc.relay.linkLastfm',
  summary:
    "Link a Last.fm target: answers the Last.fm authorisation page to open in the browser, which comes back to this server's /relay/lastfm/callback. The answer sets a cookie binding the link to the browser that receives it (the web app's): only that browser's callback links",
  auth: 'account',
  input: TargetId,
  output: Type.Object({ url: Type.String() }),
  errors: ['NotFound', 'ProviderNotConfigured'],
  async handler({ input, viewer, ctx, setCookie }) {
    const { url, nonce } = await startLastfmLink(ctx, viewer.userId, input.id);
    setCookie(lastfmBindingCookie(ctx, nonce));
    return { url };
  },
});

export const relayOperations = [
  listTargetsOperation,
  getTargetStatusOperation,
  addTargetOperation,
  removeTargetOperation,
  retryDeadLettersOperation,
  linkLastfmOperation,
];
