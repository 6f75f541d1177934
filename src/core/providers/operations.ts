/**
 * The `app.svc.provider` group: which providers this server offers and the caller's connections
 * to them (never a token), and ending one.
 */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../../adapters/http/operation.ts';
import { DateTime, isoDateTime } from '../../toolkit/schemas.ts';
import { PROVIDER_NAMES, type ProviderName } from '../../toolkit/config.ts';
import type { Database } from '../../toolkit/db/index.ts';
import { disconnect as endConnection, reconnectHint } from './connections.ts';
import { ProviderError, asXrpcProviderCall } from './errors.ts';
import { configuredProviders } from './registry.ts';

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
  lastSyncAt: Nullable(DateTime({ description: "file hosts: when the mirror last finished syncing" })),
  lastSyncError: Nullable(Type.String({ description: 'file hosts: why the last sync failed; null once one succeeds' })),
  lastPolledAt: Nullable(DateTime({ description: 'streaming: when recently played tracks were last read' })),
  lastPollError: Nullable(Type.String()),
});

async function connectionViews(db: Database, userId: string) {
  const rows = await db
    .selectFrom('provider_accounts as a')
    .leftJoin('library_sources as s', (join) => join.onRef('s.user_id', '=', 'a.user_id').onRef('s.kind', '=', 'a.provider'))
    .select(['a.provider', 'a.status', 'a.status_reason', 'a.account_id', 'a.account_name', 'a.scope', 'a.created_at', 'a.updated_at', 'a.last_polled_at', 'a.last_poll_error', 's.root', 's.last_scan_at', 's.last_scan_error'])
    .where('a.user_id', '=', userId)
    .orderBy('a.provider')
    .execute();
  const iso = (date: Date | null) => (date === null ? null : isoDateTime(date));
  return rows.map((row) => ({
    provider: row.provider as ProviderName,
    status: row.status,
    statusReason: row.status === 'broken' ? `${row.status_reason ?? 'refused by the provider'}; ${reconnectHint(row.provider as ProviderName)}` : null,
    accountId: row.account_id,
    accountName: row.account_name,
    scope: row.scope,
    connectedAt: isoDateTime(row.created_at),
    updatedAt: isoDateTime(row.updated_at),
    folder: row.root,
    lastSyncAt: iso(row.last_scan_at),
    lastSyncError: row.last_scan_error,
    lastPolledAt: iso(row.last_polled_at),
    lastPollError: row.last_poll_error,
  }));
}

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
      const provider = input.provider as ProviderName;
      if (!(await endConnection(ctx.db, viewer.userId, provider))) throw new ProviderError('NotConnected', provider, `no ${provider} account is connected`);
      return { success: true };
    }),
});

export const providerOperations = [getConnections, disconnect];
