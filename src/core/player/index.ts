export { playerOperations } from './operations.ts';
