/** The `app.svc.apikey` group: a user's API keys for scrobbling clients (Last.fm and ListenBrainz protocols). */
import { Type } from '@sinclair/typebox';
import { defineProcedure, defineQuery } from '../http/operation.ts';
import { DateTime, Empty, isoDateTime, Uuid } from '../../toolkit/schemas.ts';
import { createApiKey, listApiKeys, removeApiKey, updateApiKey, type ApiKey } from '../../core/auth/api-keys.ts';

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Shown in key listings' });
const Description = Type.String({ maxLength: 1000 });

const ApiKeyView = Type.Object({
  id: Uuid(),
  name: Type.String(),
  description: Type.String(),
  createdAt: DateTime(),
  lastUsedAt: Type.Union([DateTime(), Type.Null()]),
});

function apiKeyView(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    description: key.description,
    createdAt: isoDateTime(key.createdAt),
    lastUsedAt: key.lastUsedAt && isoDateTime(key.lastUsedAt),
  };
}

const createApikey = defineProcedure({
  nsid: 'app.svc.apikey.createApikey',
  summary: 'Create an API key; the key and shared secret are returned only in this response',
  auth: 'account',
  input: Type.Object({ name: Name, description: Type.Optional(Description) }),
  output: Type.Composite([
    ApiKeyView,
    Type.Object({
      key: Type.String({ description: 'Credential for `Authorization: Token <key>` and Last.fm api_key; shown once' }),
      sharedSecret: Type.String({ description: 'Secret for Last.fm api_sig signatures; shown once' }),
    }),
  ]),
  errors: ['LimitExceeded'],
  async handler({ input, viewer, ctx }) {
    const created = await createApiKey(ctx.db, ctx.keys, viewer, {
      name: input.name.trim(),
      description: input.description ?? '',
    });
    return { ...apiKeyView(created), key: created.key, sharedSecret: created.sharedSecret };
  },
});

const getApikeys = defineQuery({
  nsid: 'app.svc.apikey.getApikeys',
  summary: "List the caller's API keys (secrets never shown)",
  auth: 'account',
  output: Type.Object({ apikeys: Type.Array(ApiKeyView) }),
  async handler({ viewer, ctx }) {
    return { apikeys: (await listApiKeys(ctx.db, viewer.userId)).map(apiKeyView) };
  },
});

const updateApikey = defineProcedure({
  nsid: 'app.svc.apikey.updateApikey',
  summary: 'Rename an API key or change its description',
  auth: 'account',
  input: Type.Object({ id: Uuid(), name: Type.Optional(Name), description: Type.Optional(Description) }),
  output: ApiKeyView,
  errors: ['NotFound'],
  async handler({ input, viewer, ctx }) {
    return apiKeyView(await updateApiKey(ctx.db, viewer.userId, input.id, { name: input.name?.trim(), description: input.description }));
  },
});

const removeApikey = defineProcedure({
  nsid: 'app.svc.apikey.removeApikey',
  summary: 'Delete an API key; clients using it are refused from then on',
  auth: 'account',
  input: Type.Object({ id: Uuid() }),
  output: Empty,
  errors: ['NotFound'],
  async handler({ input, viewer, ctx }) {
    await removeApiKey(ctx.db, viewer.userId, input.id);
    return {};
  },
});

export const apikeyOperations = [createApikey, getApikeys, updateApikey, removeApikey];
