/**
 * A stand-in for the Cover Art Archive on loopback: `/release/{mbid}/front-250` redirects (307,
 * as the archive does) to the image's address, here `/images/{mbid}-250` on the same server in
 * place of archive.org; a release without a cover is 404.
 */
import { sendJson, startFakeServer, type FakeServer } from '../fake/server.ts';
import type { CoverImage } from '../types.ts';

export async function startFakeCoverArt(covers: Record<string, CoverImage>): Promise<FakeServer> {
  return startFakeServer(async (_request, response, url) => {
    const front = /^\/release\/([0-9a-f-]+)\/front-250$/.exec(url.pathname);
    if (front && covers[front[1]!]) {
      response.writeHead(307, { location: `/images/${front[1]}-250` });
      return void response.end();
    }
    const image = /^\/images\/([0-9a-f-]+)-250$/.exec(url.pathname);
    const cover = image ? covers[image[1]!] : undefined;
    if (!cover) return sendJson(response, 404, { error: 'Not Found' });
    response.writeHead(200, { 'content-type': cover.contentType, 'content-length': String(cover.data.length) });
    response.end(cover.data);
  });
}
