/** Every plain (non-XRPC) route of the API host: signing in, sessions, access tokens, connecting providers, linking Last.fm relays, the data export. */
import type { AnyRoute } from '../http/route.ts';
import { accessTokenRoutes } from './access-tokens.ts';
import { authRoutes } from './auth.ts';
import { exportRoutes } from './export.ts';
import { providerRoutes } from './providers.ts';
import { relayRoutes } from './relay.ts';
import { sessionRoutes } from './sessions.ts';

export const apiRoutes = [
  ...authRoutes,
  ...sessionRoutes,
  ...accessTokenRoutes,
  ...providerRoutes,
  ...relayRoutes,
  ...exportRoutes,
] satisfies readonly AnyRoute[];
