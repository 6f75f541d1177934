import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.ts';
import { registerEndpoints } from '../http/register.ts';
import { libraryCoverEndpoint } from './cover-route.ts';
import { signedStreamEndpoint } from './signed-stream-route.ts';
import { subsonicMethods } from './registry.ts';
import { registerSubsonicRoutes } from './router.ts';

/** The Subsonic REST API (`/rest/…`) the public cover route and the web player's signed stream, on the API host. */
export function registerSubsonic(app: FastifyInstance, ctx: AppContext): void {
  registerSubsonicRoutes(app, ctx, subsonicMethods);
  registerEndpoints(app, ctx, [libraryCoverEndpoint, signedStreamEndpoint]);
}
