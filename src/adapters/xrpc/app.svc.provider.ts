/**
 * The `app.svc.provider` group: which providers this server offers and the caller's connections
 * to them (never a token), and ending one.
 */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { DateTime } from '../../toolkit/schemas.ts';
import { PROVIDER_NAMES, type ProviderName } from '../../toolkit/config.ts';
import { connectionViews } from '../../core/providers/connection-views.ts';
import { disconnectOrRefuse } from '../../core/providers/connections.ts';
import { asXrpcProviderCall } from '../../core/providers/errors.ts';
import { configuredProviders } from '../../core/providers/registry.ts';

const ProviderNameSchema = Type.Union(PROVIDER_NAMES.map((name) => Type.Literal(name)));
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

const ConnectionView = Type.Object({
  provider: ProviderNameSchema,
  status: Type.Union([Type.Literal('connected'), Type.Literal('broken')], { description: 'broken: the provider refused the grant; reconnect' }),
  statusReason: Nullable(Type.String()),
  accountId: Nullable(Type.String()),
  accountName: Nullable(Type.String()),
  scope: Nullable(Type.String()),
  connectedAt: DateTime(),
  updatedAt: DateTime(),
  folder: Nullable(Type.String({ description: 'file hosts: the folder mirrored into the library' })),
  lastSyncAt: Nullable(DateTime({ description: 'file hosts: when the mirror last finished syncing' })),
  lastSyncError: Nullable(Type.String({ description: 'file hosts: why the last sync failed; null once one succeeds' })),
  lastPolledAt: Nullable(DateTime({ description: 'streaming: when recently played tracks were last read' })),
  lastPollError: Nullable(Type.String()),
});

const getConnections = defineQuery({
  nsid: 'app.svc.provider.getConnections',
  summary: "The providers this server offers (`available`) and the caller's connections to them, with their state; never a token",
  auth: 'account',
  output: Type.Object({ available: Type.Array(ProviderNameSchema), connections: Type.Array(ConnectionView) }),
  handler: async ({ viewer, ctx }) => ({ available: configuredProviders(ctx.config), connections: await connectionViews(ctx.db, viewer.userId) }),
});

const disconnect = defineProcedure({
  nsid: 'app.svc.provider.disconnect',
  summary: "End the caller's connection to a provider: its tokens are deleted and a file host's files leave the library (songs and plays stay)",
  auth: 'account',
  input: Type.Object({ provider: ProviderNameSchema }),
  output: Type.Object({ success: Type.Boolean() }),
  errors: ['NotConnected'],
  handler: ({ input, viewer, ctx }) =>
    asXrpcProviderCall(async () => {
      await disconnectOrRefuse(ctx.db, viewer.userId, input.provider as ProviderName);
      return { success: true };
    }),
});

export const providerOperations = [getConnections, disconnect];
