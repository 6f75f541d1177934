import type { ProviderConfig } from '../../config.ts';
import type { FileHostClient } from '../types.ts';

/** Placeholder until the client module lands. */
export function createFileHostAClient(_config: ProviderConfig): FileHostClient {
  throw new Error('not implemented yet');
}
