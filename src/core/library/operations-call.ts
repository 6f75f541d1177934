import { LibraryError } from './errors.ts';
import { libraryEnvelope } from './envelope.ts';

/** Runs library work for an XRPC operation: a LibraryError becomes the same failure as XRPC answers it. */
export async function asXrpc<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof LibraryError ? error.toXrpc() : error;
  }
}

/** asXrpc, with the answer in the spec's library envelope. */
export async function inEnvelope<P extends object>(work: () => Promise<P>) {
  return libraryEnvelope(await asXrpc(work));
}

/** The client name XRPC changes of the play queue record, where Subsonic records its `c` parameter. */
export const XRPC_CLIENT = 'xrpc';
