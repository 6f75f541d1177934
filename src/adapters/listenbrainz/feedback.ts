import { invalidRequest, notFound } from '../../toolkit/errors.ts';
import { likeSong, unlikeSong } from '../../core/catalog/likes.ts';
import type { AppContext } from '../../core/context.ts';
import { forwardLove, type LoveChange } from '../../core/relay/forward.ts';
import { MBID } from '../../core/catalog/track-metadata.ts';
import { inTransaction, type Database } from '../../toolkit/db/index.ts';
import { catalogTrackMetadata } from '../../core/scrobbling/listen-json.ts';
import { parseJson } from './submission.ts';
import { isJsonObject } from '../../core/scrobbling/listen-json.ts';

/**
 * ListenBrainz recording feedback over Earshot's likes: love (1) is the song's like, the
 * same star every other client sets; hate (-1) is a song_dislikes row; 0 clears either. A
 * recording is named by our track id (the recording_msid every listen we list carries) or
 * by its MusicBrainz id, which names every catalog song with that MBID.
 */

export type FeedbackScore = 1 | 0 | -1;

export interface FeedbackRequest {
  recording: { msid: string } | { mbid: string };
  score: FeedbackScore;
}

const KEYS = ['recording_msid', 'recording_mbid', 'score'];
const SCORES: readonly unknown[] = [1, 0, -1];

function uuidField(document: Record<string, unknown>, key: string): string | undefined {
  const value = document[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !MBID.test(value)) throw invalidRequest(`Invalid JSON document submitted: ${key} must be a valid UUID.`);
  return value.toLowerCase();
}

/** A recording-feedback body `{recording_msid | recording_mbid, score}`, checked as ListenBrainz checks it. */
export function parseFeedback(body: string): FeedbackRequest {
  const document = parseJson(body);
  if (!isJsonObject(document)) throw invalidRequest('Invalid JSON document submitted.');
  if ((!('recording_msid' in document) && !('recording_mbid' in document)) || !('score' in document)) {
    throw invalidRequest('JSON document must contain either recording_msid or recording_mbid, and score top level keys');
  }
  if (Object.keys(document).some((key) => !KEYS.includes(key))) {
    throw invalidRequest('JSON document may only contain recording_msid, recording_mbid and score top level keys');
  }
  if (!SCORES.includes(document.score)) throw invalidRequest('Invalid JSON document submitted: score must be 1, 0 or -1.');
  const msid = uuidField(document, 'recording_msid');
  const mbid = uuidField(document, 'recording_mbid');
  if (msid === undefined && mbid === undefined) throw invalidRequest('Invalid JSON document submitted: a recording_msid or recording_mbid is needed.');
  return { recording: msid !== undefined ? { msid } : { mbid: mbid! }, score: document.score as FeedbackScore };
}

async function recordingTracks(db: Database, recording: FeedbackRequest['recording']): Promise<string[]> {
  const column = 'msid' in recording ? 't.id' : 't.mbid';
  const id = 'msid' in recording ? recording.msid : recording.mbid;
  const rows = await db.selectFrom('tracks as t').select('t.id').where(column, '=', id).execute();
  if (rows.length === 0) throw notFound(`Cannot find recording: ${id}`);
  return rows.map((row) => row.id);
}

/** Loves, hates or clears the recording's songs for the user (a change of love is forwarded to the relay targets); 404 when the catalog has none. */
export async function recordFeedback(ctx: AppContext, userId: string, request: FeedbackRequest): Promise<void> {
  const trackIds = await recordingTracks(ctx.db, request.recording);
  const changes = await inTransaction(ctx.db, async (tx) => {
    const changes: (LoveChange | null)[] = [];
    for (const trackId of trackIds) {
      changes.push(request.score === 1 ? await likeSong(tx, userId, trackId) : await unlikeSong(tx, userId, trackId));
      if (request.score === -1)
        await tx
          .insertInto('song_dislikes')
          .values({ user_id: userId, track_id: trackId })
          .onConflict((oc) => oc.doNothing())
          .execute();
      else await tx.deleteFrom('song_dislikes').where('user_id', '=', userId).where('track_id', '=', trackId).execute();
    }
    return changes;
  });
  forwardLove(ctx, userId, changes);
}

export interface FeedbackPage {
  score: 1 | -1 | undefined;
  count: number;
  offset: number;
  metadata: boolean;
}

/** The user's loves and hates, newest first, as ListenBrainz's get-feedback lists them. */
function feedbackRows(db: Database, userId: string) {
  const loves = db
    .selectFrom('stars')
    .select(['subject_id as track_id', 'created_at'])
    .select((eb) => eb.val(1).as('score'))
    .where('user_id', '=', userId)
    .where('subject_kind', '=', 'song');
  // A like set since by another client (the API, Subsonic, Last.fm) outweighs an older hate.
  const hates = db
    .selectFrom('song_dislikes as d')
    .select(['d.track_id', 'd.created_at'])
    .select((eb) => eb.val(-1).as('score'))
    .where('d.user_id', '=', userId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('stars as s')
            .select('s.user_id')
            .whereRef('s.user_id', '=', 'd.user_id')
            .where('s.subject_kind', '=', 'song')
            .whereRef('s.subject_id', '=', 'd.track_id'),
        ),
      ),
    );
  return db.selectFrom(loves.unionAll(hates).as('f')).innerJoin('tracks as t', 't.id', 'f.track_id');
}

/** get-feedback's body: `{feedback, count, offset, total_count}`; total_count counts all the user's feedback, as ListenBrainz's does. */
export async function userFeedback(db: Database, user: { id: string; handle: string }, page: FeedbackPage) {
  const [rows, total] = await Promise.all([
    feedbackRows(db, user.id)
      .select(['f.track_id', 'f.created_at', 'f.score', 't.mbid'])
      .$if(page.score !== undefined, (query) => query.where('f.score', '=', page.score!))
      .orderBy('f.created_at', 'desc')
      .orderBy('f.track_id')
      .limit(page.count)
      .offset(page.offset)
      .execute(),
    feedbackRows(db, user.id)
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow(),
  ]);
  const metadata = page.metadata
    ? await catalogTrackMetadata(
        db,
        rows.map((row) => row.track_id),
      )
    : null;
  const feedback = rows.map((row) => ({
    created: Math.floor(row.created_at.getTime() / 1000),
    recording_mbid: row.mbid,
    recording_msid: row.track_id,
    score: Number(row.score),
    user_id: user.handle,
    ...(metadata && { track_metadata: metadata.get(row.track_id) ?? null }),
  }));
  return { feedback, count: feedback.length, offset: page.offset, total_count: Number(total.count) };
}
