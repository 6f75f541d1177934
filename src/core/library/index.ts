export { libraryOperations } from './operations.ts';
