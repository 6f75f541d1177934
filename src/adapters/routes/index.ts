/** Every plain (non-XRPC) route of the API host: signing in, sessions, access tokens, connecting providers, the data export. */
import type { AnyRoute } from '../http/route.ts';
import { accessTokenRoutes } from './access-tokens.ts';
import { authRoutes } from './auth.ts';
import { exportRoutes } from './export.ts';
import { providerRoutes } from './providers.ts';
import { sessionRoutes } from './sessions.ts';

export const apiRoutes = [...authRoutes, ...sessionRoutes, ...accessTokenRoutes, ...providerRoutes, ...exportRoutes] satisfies readonly AnyRoute[];
