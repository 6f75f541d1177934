import { invalidRequest } from '../../toolkit/errors.ts';
import type { TrackMetadata } from '../../core/catalog/track-metadata.ts';
import { metadataProblem, submittedProblem } from '../../core/scrobbling/listen-rules.ts';
import { isJsonObject } from '../../core/scrobbling/listen-json.ts';
import { durationPlayedMs } from '../../core/scrobbling/imports/records.ts';
import { readTrackMetadata } from './track-metadata.ts';

/** ListenBrainz's submission limits (webserver/views/api_tools.py). */
export const MAX_LISTENS_PER_REQUEST = 1000;
/** Bytes of one listen, serialized. */
export const MAX_LISTEN_SIZE = 10240;
/** Bytes of one request body. */
export const MAX_LISTEN_PAYLOAD_SIZE = MAX_LISTENS_PER_REQUEST * MAX_LISTEN_SIZE;
/** 2002-10-01T00:00:00Z: Last.fm data before it is mostly rubbish, so ListenBrainz refuses it. */
export const LISTEN_MINIMUM_TS = 1033430400;
/** How far ahead of the server's clock a listen may be, for clients with a fast clock. */
export const LISTENED_AT_ALLOWED_SKEW = 60 * 60;

const LISTEN_TYPES = ['single', 'playing_now', 'import'] as const;
export type ListenType = (typeof LISTEN_TYPES)[number];

export interface SubmittedListen {
  /** Unix seconds; absent for playing_now. */
  listenedAt?: number;
  metadata: TrackMetadata;
  /** How long it was played, from additional_info.duration_played (seconds); absent when not said. */
  playedMs?: number;
  /** The listen as accepted, kept verbatim with the scrobble. */
  raw: Record<string, unknown>;
}

export interface Submission {
  listenType: ListenType;
  listens: SubmittedListen[];
}

export const payloadTooLarge = () => invalidRequest(`Payload too large. Payload should be less than ${MAX_LISTEN_PAYLOAD_SIZE} bytes.`);

/** The body as JSON, or ListenBrainz's 400 for one that is not. */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch (error) {
    throw invalidRequest(`Cannot parse JSON document: ${(error as Error).message}`);
  }
}

/** Python's int() of a number or a numeric string, as ListenBrainz reads listened_at. */
export function integerTimestamp(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value === 'string' && /^\s*[+-]?\d{1,15}\s*$/.test(value)) return Number(value);
  return null;
}

function readListenedAt(listen: Record<string, unknown>, nowSeconds: number): number {
  if (!('listened_at' in listen)) throw invalidRequest('JSON document must contain the key listened_at at the top level.');
  const listenedAt = integerTimestamp(listen.listened_at);
  if (listenedAt === null) throw invalidRequest('JSON document must contain an int value for listened_at.');
  if (listenedAt < LISTEN_MINIMUM_TS) {
    throw invalidRequest(`Value for key listened_at is too low. listened_at timestamp should be greater than ${LISTEN_MINIMUM_TS} (2002-10-01 00:00:00 UTC).`);
  }
  if (listenedAt > nowSeconds + LISTENED_AT_ALLOWED_SKEW) throw invalidRequest('Value for key listened_at is too high.');
  return listenedAt;
}

function checkTopLevelKeys(listen: Record<string, unknown>, listenType: ListenType): void {
  const extra = Object.keys(listen).filter((key) => key !== 'track_metadata' && key !== 'listened_at');
  if (listenType === 'playing_now') {
    if ('listened_at' in listen) throw invalidRequest('JSON document must not contain listened_at while submitting playing_now.');
    if (extra.length > 0) throw invalidRequest('JSON document may only contain track_metadata as top level key when submitting playing_now.');
  } else if (extra.length > 0) {
    throw invalidRequest('JSON document may only contain listened_at and track_metadata top level keys.');
  }
}

function readListen(value: unknown, listenType: ListenType, nowSeconds: number): SubmittedListen {
  if (!isJsonObject(value)) throw invalidRequest('Listen is empty or not a JSON object.');
  // The rules' walk is iterative, so it goes first: JSON.stringify below recurses and would
  // overflow the stack on a deeply nested listen. It also refuses text PostgreSQL cannot store
  // (U+0000, lone surrogates) in any key or value.
  const recordProblem = submittedProblem(value);
  if (recordProblem) throw invalidRequest(`JSON document is invalid: ${recordProblem}.`);
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_LISTEN_SIZE) {
    throw invalidRequest(`JSON document is too large. Each listen may not be larger than ${MAX_LISTEN_SIZE} bytes.`);
  }
  checkTopLevelKeys(value, listenType);
  const listenedAt = listenType === 'playing_now' ? undefined : readListenedAt(value, nowSeconds);
  if (listenedAt !== undefined) value.listened_at = listenedAt;
  const metadata = readTrackMetadata(value.track_metadata);
  // The record was checked above, and listened_at by ListenBrainz's narrower window: the metadata is left.
  const reason = metadataProblem(metadata);
  if (reason) throw invalidRequest(`track_metadata: ${reason}.`);
  const info = isJsonObject(value.track_metadata) ? value.track_metadata.additional_info : undefined;
  const playedMs = isJsonObject(info) ? durationPlayedMs(info) : undefined;
  return { ...(listenedAt !== undefined && { listenedAt }), ...(playedMs !== undefined && { playedMs }), metadata, raw: value };
}

/**
 * Reads a submit-listens body under ListenBrainz's rules and limits. Any bad
 * listen rejects the whole submission (400), so nothing is stored by halves.
 */
export function parseSubmission(body: string, nowSeconds = Math.floor(Date.now() / 1000)): Submission {
  if (Buffer.byteLength(body) > MAX_LISTEN_PAYLOAD_SIZE) throw payloadTooLarge();
  const document = parseJson(body);
  if (!isJsonObject(document) || !('payload' in document)) throw invalidRequest('Invalid JSON document submitted.');
  const { payload, listen_type: listenType } = document;
  if (!Array.isArray(payload)) throw invalidRequest('The payload in the JSON document should be a list of listens.');
  if (payload.length === 0) throw invalidRequest('JSON document does not contain any listens.');
  if (payload.length > MAX_LISTENS_PER_REQUEST) {
    throw invalidRequest(`Too many listens. You may not submit more than ${MAX_LISTENS_PER_REQUEST} listens at once.`);
  }
  if (!LISTEN_TYPES.includes(listenType as ListenType)) throw invalidRequest('JSON document requires a valid listen_type key.');
  const type = listenType as ListenType;
  if (type !== 'import' && payload.length > 1) {
    throw invalidRequest('JSON document contains more than one listen for a single/playing_now. It should contain only one.');
  }
  return { listenType: type, listens: payload.map((listen) => readListen(listen, type, nowSeconds)) };
}
