import type { Viewer } from '../auth/viewer.ts';
import { resolveTracks } from '../catalog/resolve.ts';
import type { TrackMetadata } from '../catalog/track-metadata.ts';
import { inTransaction } from '../../toolkit/db/index.ts';
import type { TestApp } from '../../app/testing.ts';
import type { TestListener } from '../scrobbling/testing.ts';
import { subsonicParams } from '../../adapters/subsonic/params.ts';
import type { SubsonicMethod, SubsonicParams, SubsonicRequest } from '../../adapters/subsonic/method.ts';
import { TAG_READER_VERSION } from './tags.ts';

/** Catalog tracks for the songs, matched or created by the one matcher; answers their ids in order. */
export async function catalogTracks(app: TestApp, songs: readonly TrackMetadata[]): Promise<string[]> {
  const resolved = await inTransaction(app.ctx.db, (tx) => resolveTracks(tx, songs, true));
  return resolved.map((track) => track!.trackId);
}

export interface LibraryFixture {
  sourceId: number;
  /** Directory ids by path ('' is the root). */
  directories: Map<string, string>;
}

/**
 * A library source with files holding the given tracks, as a scan would leave it (no audio on
 * disk: the state operations only read the rows). `userId` null makes it server-wide.
 */
export async function librarySource(app: TestApp, userId: string | null, files: readonly { path: string; trackId: string | null }[]): Promise<LibraryFixture> {
  const db = app.ctx.db;
  const source = await db
    .insertInto('library_sources')
    .values({ kind: userId === null ? 'local' : 'filehostA', user_id: userId, name: 'test', root: `/music/${userId ?? 'shared'}/${Math.random()}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  const directories = new Map<string, string>();
  const directory = async (path: string): Promise<string> => {
    const known = directories.get(path);
    if (known) return known;
    const parent = path === '' ? null : await directory(path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
    const row = await db
      .insertInto('library_directories')
      .values({ source_id: source.id, user_id: userId, parent_id: parent, name: path.split('/').pop()!, path })
      .returning('id')
      .executeTakeFirstOrThrow();
    directories.set(path, row.id);
    return row.id;
  };
  await directory('');
  for (const file of files) {
    const directoryPath = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';
    await db
      .insertInto('library_files')
      .values({
        source_id: source.id,
        user_id: userId,
        directory_id: await directory(directoryPath),
        name: file.path.split('/').pop()!,
        path: file.path,
        track_id: file.trackId,
        size: 1000,
        modified_at: new Date(),
        content_type: 'audio/mpeg',
        tag_reader: TAG_READER_VERSION,
        suffix: 'mp3',
      })
      .execute();
  }
  return { sourceId: source.id, directories };
}

/** Subsonic parameters from a record, read by the router's own parameter reader. */
export function testParams(query: Record<string, string | readonly string[]>): SubsonicParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) for (const item of typeof value === 'string' ? [value] : value) search.append(name, item);
  return subsonicParams(search.toString(), undefined);
}

/** Calls a Subsonic method's handler directly, as the user, with the given parameters. */
export function callMethod(
  app: TestApp,
  methods: readonly SubsonicMethod[],
  user: TestListener,
  name: string,
  query: Record<string, string | readonly string[]> = {},
) {
  const method = methods.find((candidate) => candidate.name === name);
  if (!method) throw new Error(`no Subsonic method ${name}`);
  const viewer: Viewer = { userId: user.userId, did: user.did, handle: user.handle, credential: 'api-key' };
  const request: SubsonicRequest = { ctx: app.ctx, viewer, params: testParams(query), client: 'test-player', range: undefined, ifNoneMatch: undefined };
  return method.handler(request) as Promise<Record<string, any>>;
}
