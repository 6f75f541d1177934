import type { TrackMetadata } from '../../core/catalog/track-metadata.ts';
import { ingestListens, updateNowPlaying, type Listen, type ListenOutcome } from '../../core/scrobbling/ingest.ts';
import { defineMethod } from './method.ts';
import { element, type Element } from './response.ts';
import { parseScrobbles, submittedFields, trackMetadata } from './track-params.ts';

/** Last.fm's ignoredMessage codes. */
const IGNORED = { artist: 1, track: 2, tooOld: 3, tooNew: 4 } as const;

interface Ignored {
  code: (typeof IGNORED)[keyof typeof IGNORED];
  message: string;
}

/** Earlier than this is a broken clock, not a listen. */
const OLDEST_LISTEN_MS = Date.UTC(2000, 0, 1);
/** Clocks drift; a listen further ahead than this is refused as Last.fm does. */
const FUTURE_TOLERANCE_MS = 10 * 60 * 1000;

function ignoredMetadata(metadata: TrackMetadata): Ignored | null {
  if (!metadata.artist.trim()) return { code: IGNORED.artist, message: 'Artist name is empty' };
  if (!metadata.title.trim()) return { code: IGNORED.track, message: 'Track name is empty' };
  return null;
}

function ignoredListen(listen: Listen): Ignored | null {
  const time = listen.listenedAt.getTime();
  if (time < OLDEST_LISTEN_MS) return { code: IGNORED.tooOld, message: 'Timestamp is too old' };
  if (time > Date.now() + FUTURE_TOLERANCE_MS) return { code: IGNORED.tooNew, message: 'Timestamp is too new' };
  return ignoredMetadata(listen);
}

function ignoredByIngest(outcome: ListenOutcome | undefined): Ignored | null {
  return outcome?.status === 'ignored' ? { code: IGNORED.track, message: `Track was ignored: ${outcome.reason}` } : null;
}

/** The track as sent: Earshot stores what clients send, so nothing is ever "corrected". */
function echoedTrack(metadata: TrackMetadata): Element[] {
  const uncorrected = (name: string, value: string | undefined) => element(name, value ?? '', { corrected: '0' });
  return [
    uncorrected('track', metadata.title),
    uncorrected('artist', metadata.artist),
    uncorrected('album', metadata.album),
    uncorrected('albumArtist', metadata.albumArtist),
  ];
}

function ignoredMessage(ignored: Ignored | null): Element {
  return element('ignoredMessage', ignored?.message ?? '', { code: String(ignored?.code ?? 0) });
}

export const scrobble = defineMethod({
  name: 'track.scrobble',
  postOnly: true,
  auth: 'session',
  async handler({ ctx, params, session }) {
    const requests = parseScrobbles(params);
    const prechecked = requests.map(({ listen }) => ignoredListen(listen));
    const outcomes = await ingestListens(
      ctx,
      session.userId,
      requests.filter((_, i) => !prechecked[i]).map(({ listen }) => listen),
      'lastfm',
    );
    let next = 0;
    const ignored = prechecked.map((early) => early ?? ignoredByIngest(outcomes[next++]));
    const items = requests.map(({ listen, timestamp }, i) =>
      element('scrobble', [...echoedTrack(listen), element('timestamp', timestamp), ignoredMessage(ignored[i]!)]),
    );
    const ignoredCount = ignored.filter(Boolean).length;
    return element('scrobbles', items, { accepted: requests.length - ignoredCount, ignored: ignoredCount });
  },
});

export const nowPlaying = defineMethod({
  name: 'track.updateNowPlaying',
  postOnly: true,
  auth: 'session',
  async handler({ ctx, params, session }) {
    const metadata = trackMetadata(params);
    let ignored = ignoredMetadata(metadata);
    if (!ignored) {
      const outcome = await updateNowPlaying(ctx, session.userId, { ...metadata, submitted: submittedFields(params) });
      if (outcome.status === 'ignored') ignored = { code: IGNORED.track, message: `Track was ignored: ${outcome.reason}` };
    }
    return element('nowplaying', [...echoedTrack(metadata), ignoredMessage(ignored)]);
  },
});
