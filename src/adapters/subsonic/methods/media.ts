import path from 'node:path';
import { FILE_RESPONSE_HEADERS } from '../../http/file-headers.ts';
import { hostedBytes } from '../../../core/filehost/stream.ts';
import { libraryNotFound } from '../../../core/library/errors.ts';
import { servedAudioType } from '../../../core/library/tags.ts';
import { playableFile } from '../../../core/library/views.ts';
import { catalogParam, uuidParam } from '../args.ts';
import { fileBytes, openLocal } from '../bytes.ts';
import { subsonicCover } from '../covers.ts';
import { structuredLyrics } from '../lyrics.ts';
import { defineSubsonicMethod, type SubsonicRequest } from '../method.ts';

/** The bytes of the file a track plays, as stored: there is no transcoding, so `format` and `maxBitRate` change nothing. */
async function trackBytes({ ctx, viewer, params, range }: SubsonicRequest, attachment: boolean) {
  const id = await catalogParam(ctx.db, params, 'song');
  const file = await playableFile(ctx.db, viewer.userId, id);
  if (!file) throw libraryNotFound(`no song ${id}`);
  const headers: Record<string, string> = {
    ...FILE_RESPONSE_HEADERS,
    ...(attachment ? { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(path.basename(file.path))}` } : {}),
  };
  const contentType = servedAudioType(file.content_type);
  if (file.kind === 'local') return fileBytes(await openLocal(file), contentType, range, headers);
  return { kind: 'binary', ...(await hostedBytes(ctx, { ...file, kind: file.kind, owner_id: file.owner_id!, content_type: contentType }, range, headers)) };
}

export const stream = defineSubsonicMethod('stream', (request) => trackBytes(request, false));

export const download = defineSubsonicMethod('download', (request) => trackBytes(request, true));

/**
 * `id` is a song, album or directory id; the library's picture comes first, then the cover
 * enrichment kept for the album. `size` is ignored (the picture is sent as stored).
 */
export const getCoverArt = defineSubsonicMethod('getCoverArt', async ({ ctx, viewer, params, ifNoneMatch }) => {
  const id = uuidParam(params);
  const picture = await subsonicCover(ctx.db, viewer.userId, id, ifNoneMatch);
  if (!picture) throw libraryNotFound(`no cover art for ${id}`);
  const caching = { ...FILE_RESPONSE_HEADERS, 'cache-control': 'private, max-age=86400' };
  // The client holds these bytes: a 304 with its validator, nothing read (covers.ts).
  const unchanged = picture === 'unchanged' || picture.etag === ifNoneMatch;
  if (unchanged)
    return { kind: 'binary', status: 304, contentType: 'application/octet-stream', headers: { ...caching, etag: ifNoneMatch! }, body: Buffer.alloc(0) };
  return {
    kind: 'binary',
    status: 200,
    contentType: picture.contentType,
    headers: { ...caching, 'content-length': String(picture.data.length), etag: picture.etag },
    body: picture.data,
  };
});

/** OpenSubsonic songLyrics: the lyrics text the tags held, synced when it is LRC (lyrics.ts); the language is not known. */
export const getLyricsBySongId = defineSubsonicMethod('getLyricsBySongId', async ({ ctx, viewer, params }) => {
  const id = await catalogParam(ctx.db, params, 'song');
  const file = await playableFile(ctx.db, viewer.userId, id);
  if (!file) throw libraryNotFound(`no song ${id}`);
  const track = await ctx.db.selectFrom('tracks').select(['title', 'artist', 'lyrics']).where('id', '=', id).executeTakeFirstOrThrow();
  const lyrics = track.lyrics ? [{ displayArtist: track.artist, displayTitle: track.title, lang: 'xxx', ...structuredLyrics(track.lyrics) }] : [];
  return { lyricsList: { structuredLyrics: lyrics } };
});
