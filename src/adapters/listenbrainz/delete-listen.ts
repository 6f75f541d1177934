import { invalidRequest } from '../../toolkit/errors.ts';
import { MBID } from '../../core/catalog/track-metadata.ts';
import { integerTimestamp, parseJson } from './submission.ts';
import { isJsonObject } from '../../core/scrobbling/listen-json.ts';

export interface DeleteListen {
  /** Unix seconds, as the listen was submitted and is listed. */
  listenedAt: number;
  /** Our catalog track id, which stands in for MessyBrainz's recording_msid in every listen we list. */
  recordingMsid: string;
}

/** A value as ListenBrainz's messages show it: text bare, anything else as JSON. */
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A delete-listen body `{ listened_at, recording_msid }`, checked as ListenBrainz checks it, with its messages. */
export function parseDeleteListen(body: string): DeleteListen {
  const document = parseJson(body);
  if (!isJsonObject(document)) throw invalidRequest('Invalid JSON document submitted.');
  if (!('listened_at' in document)) throw invalidRequest('Listen timestamp missing.');
  const listenedAt = integerTimestamp(document.listened_at);
  if (listenedAt === null) throw invalidRequest(`${shown(document.listened_at)}: Listen timestamp invalid.`);
  if (!('recording_msid' in document)) throw invalidRequest('Recording MSID missing.');
  const msid = document.recording_msid;
  if (typeof msid !== 'string' || !MBID.test(msid)) throw invalidRequest(`${shown(msid)}: Recording MSID format invalid.`);
  return { listenedAt, recordingMsid: msid.toLowerCase() };
}
