export { ingestListens, updateNowPlaying, currentNowPlaying, type Listen, type ListenOutcome, type NowPlayingOutcome } from './ingest.ts';
export { scrobbleOperations } from './operations.ts';
export { scrobblerSessionOperations } from './session-operations.ts';
