/**
 * One user's data as a zip archive, streamed: the zip is written as it is read, one month of
 * plays at a time, so a download of any size holds little memory. Entries: `user.json`,
 * `likes.json`, `dislikes.json`, `playlists.json`, `listens/<year>/<month>.jsonl` and a README.txt saying what
 * each is.
 */
import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Database } from '../../toolkit/db/index.ts';
import { dislikesDocument, likesDocument, playlistsDocument, profileDocument, type ExportedUser } from './documents.ts';
import { monthLines, monthPath, playMonths } from './listens.ts';

const README = `Your Earshot data.

user.json       your profile, time zone, whom you follow, and ListenBrainz importers' latest-import marks
likes.json      the songs, albums and artists you like
dislikes.json   the songs you hated through ListenBrainz feedback
playlists.json  your playlists and their songs, in order
listens/        every play, one JSON Lines file per month (UTC), in ListenBrainz's listen format
                (listened_at in whole seconds; the exact time in additional_info.listened_at_iso):
                \`earshot import <this zip>\` or ListenBrainz's importer reads them back
`;

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** The archive's file name: whose data, and from when. */
export const archiveName = (handle: string, at = new Date()) => `earshot_${handle}_${at.toISOString().slice(0, 10)}.zip`;

/**
 * The zip's bytes. The small documents are read first (a failure there answers before any byte
 * is sent); plays are read month by month as the zip is consumed.
 */
export async function exportArchive(db: Database, user: ExportedUser): Promise<NodeJS.ReadableStream> {
  const [profile, likes, dislikes, playlists, months] = await Promise.all([
    profileDocument(db, user),
    likesDocument(db, user.id),
    dislikesDocument(db, user.id),
    playlistsDocument(db, user.id),
    playMonths(db, user.id),
  ]);
  const zip = new yazl.ZipFile();
  const mtime = new Date();
  zip.addBuffer(Buffer.from(README), 'README.txt', { mtime });
  zip.addBuffer(json(profile), 'user.json', { mtime });
  zip.addBuffer(json(likes), 'likes.json', { mtime });
  zip.addBuffer(json(dislikes), 'dislikes.json', { mtime });
  zip.addBuffer(json(playlists), 'playlists.json', { mtime });
  // yazl reads each entry's stream only when its turn comes, so one month is in flight at a time.
  for (const month of months) zip.addReadStream(Readable.from(monthLines(db, user, month)), monthPath(month), { mtime });
  zip.end();
  return zip.outputStream;
}
