export { providerOperations } from './operations.ts';
export { providerRoutes } from './routes.ts';
