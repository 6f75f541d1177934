/** The `app.svc.webhook` group: the caller's webhooks, their delivery log, and a test event (core/webhooks). */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { DateTime, Empty, isoDateTime, Uuid } from '../../toolkit/schemas.ts';
import { createHook, deleteHook, listDeliveries, listHooks, requireHook, type DeliveryView, type HookView } from '../../core/webhooks/hooks.ts';
import { DELIVERY_LOG_SIZE, testHook } from '../../core/webhooks/sender.ts';

const HookEvent = Type.Union([Type.Literal('scrobble'), Type.Literal('nowPlaying'), Type.Literal('love')]);

const Delivery = Type.Object({
  deliveryId: Uuid({ description: 'the Earshot-Delivery header: the same on every try of one event' }),
  event: Type.Union([HookEvent, Type.Literal('test')]),
  state: Type.Union([Type.Literal('queued'), Type.Literal('delivered'), Type.Literal('dead')], {
    description: 'queued (waiting for its first or next try), delivered (a 2xx answer), dead (out of tries)',
  }),
  attempts: Type.Integer(),
  status: Type.Union([Type.Integer(), Type.Null()], { description: "the last try's HTTP status; null when no answer came" }),
  response: Type.Union([Type.String(), Type.Null()], { description: "the start of the last answer's body, or why none came" }),
  durationMs: Type.Union([Type.Integer(), Type.Null()]),
  attemptedAt: Type.Union([DateTime(), Type.Null()]),
  createdAt: DateTime(),
});

const Hook = Type.Object({
  id: Uuid(),
  url: Type.String(),
  events: Type.Array(HookEvent),
  createdAt: DateTime(),
  lastDelivery: Type.Union([Delivery, Type.Null()]),
  queued: Type.Integer({ description: 'deliveries waiting for a try' }),
});

const deliveryView = (delivery: DeliveryView) => ({
  ...delivery,
  attemptedAt: delivery.attemptedAt && isoDateTime(delivery.attemptedAt),
  createdAt: isoDateTime(delivery.createdAt),
});

const hookView = (hook: HookView) => ({ ...hook, createdAt: isoDateTime(hook.createdAt), lastDelivery: hook.lastDelivery && deliveryView(hook.lastDelivery) });

const HookId = Type.Object({ id: Uuid() });

const listHooksOperation = defineQuery({
  nsid: 'app.svc.webhook.listHooks',
  summary: "The caller's webhooks, each with its newest delivery",
  auth: 'account',
  output: Type.Object({ hooks: Type.Array(Hook) }),
  async handler({ viewer, ctx }) {
    return { hooks: (await listHooks(ctx, viewer.userId)).map(hookView) };
  },
});

const createHookOperation = defineProcedure({
  nsid: 'app.svc.webhook.createHook',
  summary: 'Add a webhook: the events chosen are POSTed to the URL as JSON, signed with the secret answered here, which is never shown again',
  auth: 'account',
  input: Type.Object({
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'an http(s) URL on a public address' }),
    events: Type.Array(HookEvent, { minItems: 1, maxItems: 3 }),
  }),
  output: Type.Object({ hook: Hook, secret: Type.String({ description: 'the signing secret (whsec_…): keep it, it is shown only now' }) }),
  errors: ['LimitExceeded'],
  async handler({ input, viewer, ctx }) {
    const { hook, secret } = await createHook(ctx, viewer.userId, input);
    return { hook: hookView(hook), secret };
  },
});

const deleteHookOperation = defineProcedure({
  nsid: 'app.svc.webhook.deleteHook',
  summary: 'Remove a webhook; its queue and log go with it',
  auth: 'account',
  input: HookId,
  output: Empty,
  errors: ['NotFound'],
  async handler({ input, viewer, ctx }) {
    await deleteHook(ctx, viewer.userId, input.id);
    return {};
  },
});

const testHookOperation = defineProcedure({
  nsid: 'app.svc.webhook.testHook',
  summary: 'Send a test event to a webhook now, once; answers its log entry (the status and the start of the answer)',
  auth: 'account',
  input: HookId,
  output: Delivery,
  errors: ['NotFound'],
  async handler({ input, viewer, ctx }) {
    return deliveryView(await testHook(ctx, viewer.userId, input.id));
  },
});

const listDeliveriesOperation = defineQuery({
  nsid: 'app.svc.webhook.listDeliveries',
  summary: `A webhook's delivery log, newest first (the newest ${DELIVERY_LOG_SIZE} settled deliveries and any still queued)`,
  auth: 'account',
  params: HookId,
  output: Type.Object({ deliveries: Type.Array(Delivery) }),
  errors: ['NotFound'],
  async handler({ params, viewer, ctx }) {
    await requireHook(ctx, viewer.userId, params.id);
    return { deliveries: (await listDeliveries(ctx, viewer.userId, params.id, DELIVERY_LOG_SIZE)).map(deliveryView) };
  },
});

export const webhookOperations = [listHooksOperation, createHookOperation, deleteHookOperation, testHookOperation, listDeliveriesOperation];
