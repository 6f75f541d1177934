import type { XrpcErrorName } from '../../toolkit/errors.ts';
import type { TSchema } from '@sinclair/typebox';
import { ACCEPTED_CREDENTIALS, type AuthMode } from '../../core/auth/auth-mode.ts';
import type { AnyOperation } from './operation.ts';
import { redirects, type AnyRoute } from './route.ts';
import { ErrorBody } from '../../toolkit/schemas.ts';
import type { OpenApiDocumentSpec } from './openapi-document.ts';

type JsonObject = Record<string, unknown>;

/** TypeBox schemas carry symbol-keyed metadata; a JSON round trip leaves plain JSON Schema. */
function plain(schema: TSchema): JsonObject {
  const copy = JSON.parse(JSON.stringify(schema)) as JsonObject;
  delete copy.$id;
  return copy;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

function errorResponses(auth: AuthMode, errors: readonly XrpcErrorName[], heavy = false): JsonObject {
  const responses: JsonObject = {
    '400': errorResponse(`InvalidRequest${errors.length ? `; also ${errors.join(', ')}` : ''}`),
    '500': errorResponse('InternalServerError'),
  };
  if (auth !== 'none') responses['401'] = errorResponse('AuthMissing, InvalidToken or ExpiredToken');
  if (auth === 'account') responses['403'] = errorResponse('InsufficientScope: an API key was sent');
  if (heavy) responses['429'] = errorResponse('RateLimitExceeded: too many statistics requests in flight for this client; see Retry-After');
  return responses;
}

const CREDENTIAL_NAMES = { session: 'a sign-in JWT', 'access-token': 'a personal access token', 'api-key': 'an API key' } as const;

/** The declaration's accepted credentials, in words, for the operation's description. */
function credentialsDescription(auth: AuthMode): JsonObject {
  if (auth === 'none') return {};
  const accepted = ACCEPTED_CREDENTIALS[auth].map((kind) => CREDENTIAL_NAMES[kind]).join(', ');
  const refusesKeys = !ACCEPTED_CREDENTIALS[auth].includes('api-key');
  return {
    description: `Credentials (${auth === 'optional' ? 'optional' : 'required'}): ${accepted}.${refusesKeys ? ' An API key is refused with 403 InsufficientScope.' : ''}`,
    'x-earshot-credentials': ACCEPTED_CREDENTIALS[auth],
  };
}

function queryParameters(schema: TSchema): JsonObject[] {
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const required = new Set<string>((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(property.description ? { description: property.description } : {}),
    schema: plain(property),
  }));
}

/** An operation's tag: its nsid without the name (app.svc.actor). */
const namespaceOf = (nsid: string) => nsid.split('.').slice(0, -1).join('.');

export function operationEntry(operation: AnyOperation): JsonObject {
  const entry: JsonObject = {
    operationId: operation.nsid,
    summary: operation.summary,
    ...credentialsDescription(operation.auth),
    tags: [namespaceOf(operation.nsid)],
    ...(operation.auth === 'none' ? { security: [] } : operation.auth === 'optional' ? { security: [{}, { bearer: [] }] } : {}),
    parameters: queryParameters(operation.params),
    responses: {
      '200': { description: 'OK', content: { 'application/json': { schema: plain(operation.output) } } },
      ...errorResponses(operation.auth, operation.errors, operation.heavy),
    },
  };
  if (operation.input) {
    entry.requestBody = { required: true, content: { 'application/json': { schema: plain(operation.input) } } };
  }
  return entry;
}

const XRPC_ROUTE = /^\/xrpc\/([\w.]+)$/;

/** An XRPC query declared as a route (one answering a download) is named and tagged as the operations are. */
function routeNames(route: AnyRoute): JsonObject {
  const nsid = XRPC_ROUTE.exec(route.path)?.[1];
  if (nsid) return { operationId: nsid, tags: [namespaceOf(nsid)] };
  return {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[/:{}-](\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [route.path.split('/')[1]],
  };
}

export function routeEntry(route: AnyRoute): JsonObject {
  const pathParams = Object.keys((route.pathParams.properties ?? {}) as object).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: plain((route.pathParams.properties as Record<string, TSchema>)[name]!),
  }));
  const success = redirects(route)
    ? { description: 'Redirect', headers: { location: { description: 'where to go', schema: { type: 'string' } } } }
    : route.success.download
      ? { description: 'OK: a file, streamed', content: { [route.success.download]: { schema: { type: 'string', format: 'binary' } } } }
      : route.success.schema
        ? { description: 'OK', content: { 'application/json': { schema: plain(route.success.schema) } } }
        : { description: 'No content' };
  return {
    ...routeNames(route),
    summary: route.summary,
    ...credentialsDescription(route.auth),
    ...(route.auth === 'none' ? { security: [] } : {}),
    parameters: [...pathParams, ...queryParameters(route.query)],
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: plain(route.body) } } } } : {}),
    responses: { [String(route.success.status)]: success, ...errorResponses(route.auth, route.errors) },
  };
}

/** The API host's document: XRPC operations under its /xrpc server, with bearer credentials and the spec's error body. */
export const API_DOCUMENT = (publicUrl: string): OpenApiDocumentSpec => ({
  title: 'Earshot API',
  description: 'Music listening-history (scrobbling) service.',
  baseUrl: publicUrl,
  server: `${publicUrl}/xrpc`,
  security: [{ bearer: [] }],
  components: {
    schemas: { ErrorBody: plain(ErrorBody) },
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Sign-in JWT, personal access token or API key' },
    },
  },
});
