export { statsOperations } from './operations.ts';
export { wrappedFor, type WrappedRequest } from './wrapped.ts';
