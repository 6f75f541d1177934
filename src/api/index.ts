export { buildApiServer, createHttpServer, type HttpServerOptions } from './server.ts';
export { defineProcedure, defineQuery, type AnyOperation } from './operation.ts';
export { defineRoute, type AnyRoute } from './route.ts';
export { XrpcError, invalidRequest, authMissing, invalidToken, notFound, forbidden, conflict } from './errors.ts';
export { operations, routes } from './registry.ts';
