import { sql, type Expression } from 'kysely';
import { parseStream } from 'music-metadata';
import { compiledOnce, type Database } from '../../toolkit/db/index.ts';
import { storedAlbumCover } from '../../core/catalog/enrich/index.ts';
import { imageType, type ImageType } from '../../toolkit/image-type.ts';
import { pictureEtag, type PictureLookup } from '../http/file-headers.ts';
import { openLocal } from './bytes.ts';
import { RecentPictures } from './recent-pictures.ts';

export interface Picture {
  data: Buffer;
  /** Told from the bytes: a picture whose bytes are no allowed image is no picture. */
  contentType: ImageType;
}

/** A folder image larger than this is not a cover but something else named like one. */
const MAX_FOLDER_IMAGE_BYTES = 20 * 1024 * 1024;

/** A file row that has a cover: `cover` is 'embedded' or a folder image's path relative to the source root. */
interface CoverFile {
  id: string;
  kind: string;
  root: string;
  path: string;
  cover: string | null;
  cover_etag: string | null;
}

/** The bytes as a picture, typed by what they are; null when they are not an allowed image. */
function pictureOf(data: Uint8Array): Picture | null {
  const contentType = imageType(data);
  return contentType ? { data: Buffer.from(data.buffer, data.byteOffset, data.byteLength), contentType } : null;
}

/** The first embedded picture of an audio file that really is an image, read through the one open handle. */
async function embeddedPicture(file: CoverFile): Promise<Picture | null> {
  const { handle, stat } = await openLocal(file);
  const stream = handle.createReadStream({ autoClose: false });
  try {
    const metadata = await parseStream(stream, { size: stat.size, path: file.path }, { duration: false, skipPostHeaders: true });
    for (const picture of metadata.common.picture ?? []) {
      const typed = pictureOf(picture.data);
      if (typed) return typed;
    }
    return null;
  } finally {
    stream.destroy();
    await handle.close();
  }
}

/** A folder image's bytes, when they are an allowed image (its name says nothing). */
async function folderImage(file: CoverFile, cover: string): Promise<Picture | null> {
  const { handle, stat } = await openLocal({ ...file, path: cover });
  try {
    if (stat.size > MAX_FOLDER_IMAGE_BYTES) return null;
    // The size is known from the open: one read of it, where readFile would stat again and read on to the end.
    const data = Buffer.allocUnsafe(stat.size);
    let filled = 0;
    while (filled < data.length) {
      const { bytesRead } = await handle.read(data, filled, data.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return pictureOf(data.subarray(0, filled));
  } finally {
    await handle.close();
  }
}

/**
 * The picture a file's `cover` names, or null when it is gone, unreadable, outside the music
 * folder, or not an allowed image whatever its name or tag declares (the caller goes on to the
 * next candidate).
 */
export async function readCover(file: CoverFile): Promise<Picture | null> {
  if (!file.cover) return null;
  try {
    return file.cover === 'embedded' ? await embeddedPicture(file) : await folderImage(file, file.cover);
  } catch {
    return null;
  }
}

/**
 * The files with a cover that an id names, best first: a track's files, an album's tracks'
 * files, or a directory's files (then its subdirectories'). `userId` limits them to the sources
 * that user sees; null (the public cover route) takes server-wide sources only. Each lookup goes
 * through an indexed column (tracks by id or album, directories by id or parent, then their
 * files), where one OR across the joins would read every file with a cover; an id is a track, an
 * album or a directory, so the directories are looked at only when no track answered.
 */
export async function coverFiles(db: Database, userId: string | null, id: string): Promise<CoverFile[]> {
  const ofTracks = await coveredTrackFiles(db, userId, id);
  return ofTracks.length > 0 ? ofTracks : coveredDirectoryFiles(db, userId, id);
}

/**
 * The first five files with a cover among those `candidates` (a subquery on `exact`) names, in the
 * sources the user sees (a null user matches no owner: server-wide sources only), the exact match
 * first. Compiled once (every cover request makes one): the user and the id are its only parameters.
 */
const coveredFiles = (exact: 'f.track_id' | 'f.directory_id', candidates: (db: Database, id: string) => Expression<{ id: string }>) =>
  compiledOnce((db: Database, userId: string | null, id: string) =>
    db
      .selectFrom('library_files as f')
      .innerJoin('library_sources as s', 's.id', 'f.source_id')
      .select(['f.id', 's.kind', 's.root', 'f.path', 'f.cover', 'f.cover_etag'])
      .where('f.cover', 'is not', null)
      .where(sql<boolean>`(s.user_id is null or s.user_id = ${userId})`)
      .where(sql<boolean>`${sql.ref(exact)} in (${candidates(db, id)})`)
      .orderBy(sql`${sql.ref(exact)} = ${id}`, 'desc')
      .orderBy(sql`s.user_id is not null`)
      .orderBy('f.path')
      .limit(5),
  );

const coveredTrackFiles = coveredFiles('f.track_id', (db, id) =>
  db
    .selectFrom('tracks')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', id), eb('album_id', '=', id)])),
);

const coveredDirectoryFiles = coveredFiles('f.directory_id', (db, id) =>
  db
    .selectFrom('library_directories')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', id), eb('parent_id', '=', id)])),
);

/** Pictures read lately, shared by every request of this process (recent-pictures.ts). */
const recentPictures = new RecentPictures<Picture>();
const pictureKey = (file: CoverFile, etag: string) => `${file.id}\n${file.cover}\n${etag}`;

/**
 * The first readable picture among the files an id names, with its ETag: the one stored with the
 * file, else the picture's digest, then stored so later requests never hash it. 'unchanged' when
 * `known` (the client's If-None-Match) is a candidate's stored ETag: nothing is read then; nor when
 * this process read the picture under that ETag lately.
 */
export async function coverFor(db: Database, userId: string | null, id: string, known?: string): Promise<PictureLookup> {
  for (const file of await coverFiles(db, userId, id)) {
    if (known !== undefined && file.cover_etag === known) return 'unchanged';
    const kept = file.cover_etag === null ? undefined : recentPictures.get(pictureKey(file, file.cover_etag));
    if (kept) return { ...kept, etag: file.cover_etag! };
    const picture = await readCover(file);
    if (!picture) continue;
    const etag = file.cover_etag ?? pictureEtag(picture.data);
    // Only while the file still names this cover: a scan in between cleared it for new bytes.
    if (file.cover_etag === null) {
      await db.updateTable('library_files').set({ cover_etag: etag }).where('id', '=', file.id).where('cover', '=', file.cover).execute();
    }
    recentPictures.set(pictureKey(file, etag), picture);
    return { ...picture, etag };
  }
  return null;
}

/**
 * getCoverArt's picture: the library's (coverFor), else the cover enrichment kept for the album the
 * id names, or for the album of the song it names (album covers are public at /covers/ anyway).
 */
export async function subsonicCover(db: Database, userId: string, id: string, known?: string): Promise<PictureLookup> {
  const fromLibrary = await coverFor(db, userId, id, known);
  if (fromLibrary) return fromLibrary;
  const song = await db.selectFrom('tracks').select('album_id').where('id', '=', id).executeTakeFirst();
  return storedAlbumCover(db, song?.album_id ?? id);
}
