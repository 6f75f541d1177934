import { apikeyOperations, authRoutes } from '../core/auth/index.ts';
import { catalogOperations } from '../core/catalog/index.ts';
import { scrobbleOperations, scrobblerSessionOperations } from '../core/scrobbling/index.ts';
import { libraryOperations } from '../core/library/index.ts';
import { playerOperations } from '../core/player/index.ts';
import { profileOperations } from '../core/profiles/index.ts';
import { statsOperations } from '../core/stats/index.ts';
import { providerOperations, providerRoutes } from '../core/providers/index.ts';
import { fileHostOperations } from '../core/filehost/index.ts';
import { musicstreamOperations } from '../core/musicstream/index.ts';
import { exportRoutes } from '../core/export/index.ts';
import { serverInfoOperations } from '../core/server-info/index.ts';
import type { AnyOperation } from '../adapters/http/operation.ts';
import type { AnyRoute } from '../adapters/http/route.ts';

/** Every XRPC operation the API host serves, gathered from the domains that declare them. */
export const operations = [...apikeyOperations, ...scrobbleOperations, ...scrobblerSessionOperations, ...catalogOperations, ...profileOperations, ...statsOperations, ...libraryOperations, ...playerOperations, ...providerOperations, ...fileHostOperations, ...musicstreamOperations, ...serverInfoOperations] satisfies readonly AnyOperation[];

/** Every plain (non-XRPC) route of the API host. */
export const routes = [...authRoutes, ...providerRoutes, ...exportRoutes] satisfies readonly AnyRoute[];
