import { methodsOf, type AnyEndpoint, type Endpoint } from './endpoint.ts';

type JsonObject = Record<string, unknown>;

/** What a host's document says of itself; endpoints fill its paths. */
export interface OpenApiDocumentSpec {
  title: string;
  description: string;
  /** The host's public URL, where every path is written in full. */
  baseUrl: string;
  /** The document's own server, when not `baseUrl`: endpoints with an `openapiPath` are relative to it, others get a path-level server. */
  server?: string;
  security?: JsonObject[];
  components?: JsonObject;
}

/** Fastify's `:name` and `*` as OpenAPI path templates. */
export const openApiPath = (fastifyPath: string) => fastifyPath.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');

function entryOf(endpoint: AnyEndpoint): JsonObject {
  return { ...endpoint.openapi, summary: endpoint.summary };
}

/**
 * The OpenAPI 3.1.0 document of one host, built from the endpoints it registered. Two endpoints
 * on one method and path (the Audioscrobbler handshake shares GET / with the host's page, told
 * apart by `hs=true`) are one entry: the first, with the others under `x-earshot-variants`.
 */
export function buildOpenApiDocument(spec: OpenApiDocumentSpec, endpoints: readonly AnyEndpoint[]): JsonObject {
  const server = spec.server ?? spec.baseUrl;
  const paths: Record<string, JsonObject> = {};
  for (const endpoint of endpoints as readonly Endpoint<never>[]) {
    const path = endpoint.openapiPath ?? openApiPath(endpoint.path);
    paths[path] ??= endpoint.openapiPath || server === spec.baseUrl ? {} : { servers: [{ url: spec.baseUrl }] };
    const item = paths[path];
    for (const method of methodsOf(endpoint).map((name) => name.toLowerCase())) {
      const existing = item[method] as JsonObject | undefined;
      if (!existing) item[method] = entryOf(endpoint);
      else existing['x-earshot-variants'] = [...((existing['x-earshot-variants'] as JsonObject[] | undefined) ?? []), entryOf(endpoint)];
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: spec.title, version: '1.0.0', description: spec.description, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: server }],
    ...(spec.security ? { security: spec.security } : {}),
    paths,
    ...(spec.components ? { components: spec.components } : {}),
  };
}
