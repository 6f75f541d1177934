import type { AnyEndpoint } from './endpoint.ts';
import { HeavyReadLimiter } from './heavy-limit.ts';
import { liveEventsEndpoint } from './live-events-endpoint.ts';
import { API_DOCUMENT } from './openapi.ts';
import { openApiEndpoint } from './openapi-endpoint.ts';
import type { AnyOperation } from './operation.ts';
import { albumCoverEndpoint, artistImageEndpoint, avatarEndpoint } from './picture-endpoints.ts';
import type { AnyRoute } from './route.ts';
import { ResponseCache } from './response-cache.ts';
import { routeEndpoint } from './route-endpoints.ts';
import { operationEndpoint } from './xrpc-endpoints.ts';

/** The API host's endpoints beside Subsonic and the ops routes: XRPC operations, plain routes, pictures, the live events stream and the OpenAPI document. */
export function apiEndpoints(
  declarations: { operations: readonly AnyOperation[]; routes: readonly AnyRoute[] },
  options: { responseCacheBytes: number },
): AnyEndpoint[] {
  const shared = { limiter: new HeavyReadLimiter(), cache: new ResponseCache(options.responseCacheBytes) };
  return [
    ...declarations.operations.map((operation) => operationEndpoint(operation, shared)),
    ...declarations.routes.map(routeEndpoint),
    albumCoverEndpoint,
    artistImageEndpoint,
    avatarEndpoint,
    liveEventsEndpoint,
    openApiEndpoint('api', (ctx) => API_DOCUMENT(ctx.config.publicUrl)),
  ];
}
