import type { ProviderConfig } from '../../config.ts';
import type { StreamingClient } from '../types.ts';

/** Placeholder until the client module lands. */
export function createMusicstreamClient(_config: ProviderConfig): StreamingClient {
  throw new Error('not implemented yet');
}
