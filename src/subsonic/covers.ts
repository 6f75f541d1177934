import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { parseFile } from 'music-metadata';
import type { Database } from '../db/index.ts';
import { localPath } from './bytes.ts';

export interface Picture {
  data: Buffer;
  contentType: string;
}

const IMAGE_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.gif': 'image/gif', '.webp': 'image/webp', '.bmp': 'image/bmp' };

/** A file row that has a cover: `cover` is 'embedded' or a folder image's path relative to the source root. */
interface CoverFile {
  kind: string;
  root: string;
  path: string;
  cover: string | null;
}

/** The picture a file's `cover` names, or null when it is gone or unreadable. */
export async function readCover(file: CoverFile): Promise<Picture | null> {
  if (!file.cover) return null;
  try {
    if (file.cover === 'embedded') {
      const metadata = await parseFile(localPath(file), { duration: false, skipPostHeaders: true });
      const picture = metadata.common.picture?.[0];
      return picture ? { data: Buffer.from(picture.data), contentType: picture.format.includes('/') ? picture.format : `image/${picture.format}` } : null;
    }
    const image = localPath({ ...file, path: file.cover });
    return { data: await fs.promises.readFile(image), contentType: IMAGE_TYPES[path.extname(image).toLowerCase()] ?? 'application/octet-stream' };
  } catch {
    return null;
  }
}

/**
 * The files with a cover that an id names, best first: a track's files, an album's tracks'
 * files, or a directory's files (then its subdirectories'). `userId` limits them to the sources
 * that user sees; null (the public cover route) takes server-wide sources only.
 */
export async function coverFiles(db: Database, userId: string | null, id: string): Promise<CoverFile[]> {
  return db
    .selectFrom('library_files as f')
    .innerJoin('library_sources as s', 's.id', 'f.source_id')
    .leftJoin('tracks as t', 't.id', 'f.track_id')
    .leftJoin('library_directories as d', 'd.id', 'f.directory_id')
    .select(['s.kind', 's.root', 'f.path', 'f.cover'])
    .where('f.cover', 'is not', null)
    .where((eb) => eb.or([eb('f.track_id', '=', id), eb('t.album_id', '=', id), eb('f.directory_id', '=', id), eb('d.parent_id', '=', id)]))
    .where((eb) => (userId === null ? eb('s.user_id', 'is', null) : eb.or([eb('s.user_id', 'is', null), eb('s.user_id', '=', userId)])))
    .orderBy(sql`f.track_id = ${id}`, 'desc')
    .orderBy(sql`f.directory_id = ${id}`, 'desc')
    .orderBy(sql`s.user_id is not null`)
    .orderBy('f.path')
    .limit(5)
    .execute();
}

/** The first readable picture among the files an id names. */
export async function coverFor(db: Database, userId: string | null, id: string): Promise<Picture | null> {
  for (const file of await coverFiles(db, userId, id)) {
    const picture = await readCover(file);
    if (picture) return picture;
  }
  return null;
}

/** A validator for caches: the picture's own digest, so it changes exactly when the bytes do. */
export function pictureEtag(picture: Picture): string {
  return `"${createHash('sha256').update(picture.data).digest('base64url').slice(0, 27)}"`;
}
