import { apikeyOperations, authRoutes } from '../auth/index.ts';
import { scrobbleOperations } from '../scrobbling/index.ts';
import type { AnyOperation } from './operation.ts';
import type { AnyRoute } from './route.ts';

/** Every XRPC operation the API host serves, gathered from the domains that declare them. */
export const operations: readonly AnyOperation[] = [...apikeyOperations, ...scrobbleOperations];

/** Every plain (non-XRPC) route of the API host. */
export const routes: readonly AnyRoute[] = [...authRoutes];
