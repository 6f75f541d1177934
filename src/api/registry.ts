import { apikeyOperations, authRoutes } from '../auth/index.ts';
import { catalogOperations } from '../catalog/index.ts';
import { scrobbleOperations, scrobblerSessionOperations } from '../scrobbling/index.ts';
import { libraryOperations } from '../library/index.ts';
import { playerOperations } from '../player/index.ts';
import { profileOperations } from '../profiles/index.ts';
import { statsOperations } from '../stats/index.ts';
import { providerOperations, providerRoutes } from '../providers/index.ts';
import { fileHostOperations } from '../filehost/index.ts';
import { musicstreamOperations } from '../musicstream/index.ts';
import { exportRoutes } from '../export/index.ts';
import { serverInfoOperations } from '../server-info/index.ts';
import type { AnyOperation } from './operation.ts';
import type { AnyRoute } from './route.ts';

/** Every XRPC operation the API host serves, gathered from the domains that declare them. */
export const operations = [...apikeyOperations, ...scrobbleOperations, ...scrobblerSessionOperations, ...catalogOperations, ...profileOperations, ...statsOperations, ...libraryOperations, ...playerOperations, ...providerOperations, ...fileHostOperations, ...musicstreamOperations, ...serverInfoOperations] satisfies readonly AnyOperation[];

/** Every plain (non-XRPC) route of the API host. */
export const routes = [...authRoutes, ...providerRoutes, ...exportRoutes] satisfies readonly AnyRoute[];
