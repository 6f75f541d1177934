import type { Viewer } from '../../core/auth/viewer.ts';
import { bearerCredentials } from './bearer.ts';
import { cookieSetter, parseCookies } from './cookies.ts';
import type { Endpoint } from './endpoint.ts';
import { routeEntry } from './openapi.ts';
import { redirects, type AnyRoute, type Download } from './route.ts';
import { XRPC_BODY_LIMIT } from './xrpc-endpoints.ts';
import { PLAIN_HTTP, XRPC } from './xrpc-protocol.ts';

/** A plain route as an endpoint; one at an XRPC address (a download such as app.svc.actor.exportData) keeps XRPC's method rule. */
export function routeEndpoint(route: AnyRoute): Endpoint<Viewer | null> {
  return {
    method: route.method,
    path: route.path,
    host: 'api',
    protocol: route.path.startsWith('/xrpc/') ? XRPC : PLAIN_HTTP,
    summary: route.summary,
    credentials: bearerCredentials(route.auth),
    openapi: routeEntry(route),
    route: {
      bodyLimit: XRPC_BODY_LIMIT,
      schema: {
        params: route.pathParams,
        querystring: route.query,
        ...(route.body ? { body: route.body } : {}),
        ...(route.success.schema ? { response: { [route.success.status]: route.success.schema } } : {}),
      },
    },
    handler: async ({ request, reply, ctx, credentials }) => {
      const call = { pathParams: request.params as never, query: request.query as never, body: request.body as never, viewer: credentials as never, ctx };
      const body = await route.handler({
        ...call,
        userAgent: request.headers['user-agent'],
        cookies: parseCookies(request.headers.cookie),
        setCookie: cookieSetter(reply),
      });
      if (redirects(route)) return reply.redirect(body as string, route.success.status);
      if (route.success.download) {
        const { filename, body: bytes } = body as Download;
        reply.header('content-type', route.success.download).header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`);
        return reply.status(route.success.status).send(bytes);
      }
      reply.status(route.success.status);
      return route.success.schema ? body : reply.send();
    },
  };
}
