export { ingestListens, updateNowPlaying, currentNowPlaying, type Listen, type ListenOutcome, type NowPlayingOutcome } from './ingest.ts';
