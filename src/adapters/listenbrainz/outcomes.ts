import type { ListenOutcome, NowPlayingOutcome } from '../../core/scrobbling/ingest.ts';

/**
 * What became of each listen of a submission, reported beside ListenBrainz's
 * `{"status": "ok"}`: ListenBrainz clients read only the status, newer ones can see which
 * listens were stored, which were already there and which were ignored, and why.
 * recording_msid is the song's id, as listens and feedback use it.
 */
export type ListenResult =
  | { index: number; outcome: 'stored' | 'duplicate' | 'playing_now'; recording_msid: string }
  | { index: number; outcome: 'ignored'; reason: string };

export interface SubmissionPayload {
  submitted: number;
  stored: number;
  duplicate: number;
  ignored: number;
  listens: ListenResult[];
}

function payloadOf(listens: ListenResult[]): SubmissionPayload {
  const count = (outcome: ListenResult['outcome']) => listens.filter((listen) => listen.outcome === outcome).length;
  return { submitted: listens.length, stored: count('stored'), duplicate: count('duplicate'), ignored: count('ignored'), listens };
}

/** Ingest's outcomes, in the submission's order. */
export function listensPayload(outcomes: readonly ListenOutcome[]): SubmissionPayload {
  return payloadOf(
    outcomes.map(
      (outcome, index): ListenResult =>
        outcome.status === 'ignored'
          ? { index, outcome: 'ignored', reason: outcome.reason }
          : { index, outcome: outcome.status, recording_msid: outcome.trackId },
    ),
  );
}

/** A playing_now submission's single listen. */
export function playingNowPayload(outcome: NowPlayingOutcome): SubmissionPayload {
  return payloadOf([
    outcome.status === 'ignored'
      ? { index: 0, outcome: 'ignored', reason: outcome.reason }
      : { index: 0, outcome: 'playing_now', recording_msid: outcome.trackId },
  ]);
}
