import { xrpcOperations } from '../adapters/xrpc/index.ts';
import { apiRoutes } from '../adapters/routes/index.ts';

/** Every XRPC operation the API host serves (src/adapters/xrpc, one module per nsid group). */
export const operations = xrpcOperations;

/** Every plain (non-XRPC) route of the API host (src/adapters/routes). */
export const routes = apiRoutes;
