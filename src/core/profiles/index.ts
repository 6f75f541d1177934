export { profileOperations } from './operations.ts';
