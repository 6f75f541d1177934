/**
 * A cover's type comes from its bytes (image-type.ts), never from the tag's declared format or the
 * file's name: a picture that is HTML or SVG with script, whatever it claims, is no cover (404 on
 * the public route, error 70 on getCoverArt), through the real scanner and the real server, and
 * in real Chromium no script of it ever runs on Earshot's origin. Every file route also sends
 * nosniff and a sandboxing CSP.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { FILE_RESPONSE_HEADERS } from '../http/file-headers.ts';
import { scanLibrary, type ScanReport } from '../../core/library/scan/index.ts';
import { NOT_AN_IMAGE } from '../../core/library/scan/walk.ts';
import { testJpeg, testPng, writeTestImage, writeTestTrack, type TestTags } from '../../core/library/test-music.ts';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { chromiumPath, launch } from '../web/browser-testing.ts';
import { rest, restJson, subsonicUser } from './client-testing.ts';

/** Script that leaves marks a test can read: the page's title, and a key in the origin's storage. */
const MARK = 'document.title = "pwned"; try { localStorage.setItem("pwned", "yes"); } catch (e) {}';
const HTML = Buffer.from(`<!DOCTYPE html><html><head><title>a cover</title></head><body><script>${MARK}</script></body></html>`);
const SVG = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>a cover</title><script>${MARK}</script></svg>`);
const PNG = Buffer.from(testPng('really a png'));

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;

function assertFileHeaders(response: Response, what: string): void {
  for (const [name, value] of Object.entries(FILE_RESPONSE_HEADERS)) assert.equal(response.headers.get(name), value, `${what}: ${name}`);
}

async function trackOf(app: TestApp, report: ScanReport, file: string): Promise<string> {
  const row = await app.ctx.db
    .selectFrom('library_files')
    .select('track_id')
    .where('source_id', '=', report.sourceId)
    .where('path', '=', file)
    .executeTakeFirstOrThrow();
  return row.track_id!;
}

describeWithApp('cover types from bytes', (app) => {
  let dir: string;
  let report: ScanReport;
  let auth: Record<string, string>;
  const tracks: Record<string, string> = {};
  const song = (title: string, picture?: TestTags['picture']): TestTags => ({ artist: 'Cover Type Artist', album: `Album ${title}`, title, picture });

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-music-'));
    // Lies the scanner already sees through.
    await writeTestTrack(dir, 'Scanned/html.mp3', 'mp3', song('Scanned HTML', { mime: 'text/html', data: HTML }));
    await writeTestTrack(dir, 'Scanned/svg.mp3', 'mp3', song('Scanned SVG', { mime: 'image/svg+xml', data: SVG }));
    await writeTestTrack(dir, 'Folder/song.mp3', 'mp3', song('Folder HTML'));
    await writeFile(path.join(dir, 'Folder/cover.jpg'), HTML);
    await writeTestTrack(dir, 'Liar/png.mp3', 'mp3', song('PNG as JPEG', { mime: 'image/jpeg', data: PNG }));
    await writeTestTrack(dir, 'Liar Folder/song.mp3', 'mp3', song('PNG folder'));
    await writeFile(path.join(dir, 'Liar Folder/cover.jpg'), PNG);
    // Honest at the scan, replaced afterwards: only the serving side can refuse these.
    const honest = { mime: 'image/jpeg', data: testJpeg('honest') };
    await writeTestTrack(dir, 'Later/html.mp3', 'mp3', song('Later HTML', honest));
    await writeTestTrack(dir, 'Later/svg.mp3', 'mp3', song('Later SVG', honest));
    await writeTestTrack(dir, 'Later Folder/song.mp3', 'mp3', song('Later folder'));
    await writeTestImage(dir, 'Later Folder/cover.jpg');
    report = await scanLibrary(app().ctx, { musicDir: dir });
    assert.equal(report.added, 8, JSON.stringify(report));
    for (const file of [
      'Scanned/html.mp3',
      'Scanned/svg.mp3',
      'Folder/song.mp3',
      'Liar/png.mp3',
      'Liar Folder/song.mp3',
      'Later/html.mp3',
      'Later/svg.mp3',
      'Later Folder/song.mp3',
    ]) {
      tracks[file] = await trackOf(app(), report, file);
    }
    await writeTestTrack(dir, 'Later/html.mp3', 'mp3', song('Later HTML', { mime: 'text/html', data: HTML }));
    await writeTestTrack(dir, 'Later/svg.mp3', 'mp3', song('Later SVG', { mime: 'image/svg+xml', data: SVG }));
    await writeFile(path.join(dir, 'Later Folder/cover.jpg'), HTML);
    const user = await subsonicUser(app(), 'covertypes');
    auth = { u: user.handle, p: user.key };
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const MALICIOUS = ['Scanned/html.mp3', 'Scanned/svg.mp3', 'Folder/song.mp3', 'Later/html.mp3', 'Later/svg.mp3', 'Later Folder/song.mp3'];

  test('the scan keeps no cover whose bytes are no image, and names a folder image that is not one', async () => {
    const rows = await app().ctx.db.selectFrom('library_files').select(['path', 'cover']).where('source_id', '=', report.sourceId).orderBy('path').execute();
    const covers = Object.fromEntries(rows.map((row) => [row.path, row.cover]));
    assert.equal(covers['Scanned/html.mp3'], null);
    assert.equal(covers['Scanned/svg.mp3'], null);
    assert.equal(covers['Folder/song.mp3'], null);
    assert.equal(covers['Liar/png.mp3'], 'embedded');
    assert.equal(covers['Liar Folder/song.mp3'], 'Liar Folder/cover.jpg');
    assert.deepEqual(report.skipped, [{ path: 'Folder/cover.jpg', reason: NOT_AN_IMAGE }]);
  });

  test('HTML and SVG pictures, embedded or in the folder, seen at the scan or put there after it: 404 on the public route, 70 on getCoverArt', async () => {
    for (const file of MALICIOUS) {
      const id = tracks[file]!;
      const open = await fetch(`${app().apiUrl}/library/covers/${id}`);
      assert.equal(open.status, 404, file);
      assert.match(open.headers.get('content-type') ?? '', /^application\/json/, file);
      const failed = await restJson(app(), 'getCoverArt', { ...auth, id });
      assert.equal(failed.status, 'failed', file);
      assert.equal(failed.error.code, 70, file);
    }
  });

  test('a PNG declared as JPEG (in the tag, or by its name) is served as image/png, with nosniff and a sandboxing CSP', async () => {
    for (const file of ['Liar/png.mp3', 'Liar Folder/song.mp3']) {
      const id = tracks[file]!;
      const open = await fetch(`${app().apiUrl}/library/covers/${id}`);
      assert.equal(open.status, 200, file);
      assert.equal(open.headers.get('content-type'), 'image/png', file);
      assertFileHeaders(open, `/library/covers ${file}`);
      assert.deepEqual(Buffer.from(await open.arrayBuffer()), PNG);
      const subsonic = await rest(app(), 'getCoverArt', { ...auth, id });
      assert.equal(subsonic.headers.get('content-type'), 'image/png', file);
      assertFileHeaders(subsonic, `getCoverArt ${file}`);
      assert.deepEqual(Buffer.from(await subsonic.arrayBuffer()), PNG);
    }
  });

  test('stream and download send nosniff and a sandboxing CSP, with the audio type', async () => {
    const id = tracks['Liar/png.mp3']!;
    for (const method of ['stream', 'download']) {
      const response = await rest(app(), method, { ...auth, id });
      assert.equal(response.status, 200, method);
      assert.equal(response.headers.get('content-type'), 'audio/mpeg', method);
      assertFileHeaders(response, method);
      await response.arrayBuffer();
    }
    const ranged = await rest(app(), 'stream', { ...auth, id }, { range: 'bytes=0-9' });
    assert.equal(ranged.status, 206);
    assertFileHeaders(ranged, 'ranged stream');
    await ranged.arrayBuffer();
  });

  test('in Chromium, opening the malicious covers runs no script on Earshot’s origin (while the same bytes served as a page would run)', { skip }, async () => {
    // A bare server beside Earshot shows the marks are readable: as text/html or image/svg+xml the
    // script runs; with the file routes' headers, even as text/html, it does not.
    const control = http.createServer((request, response) => {
      const body = request.url === '/svg' ? SVG : HTML;
      const type = request.url === '/svg' ? 'image/svg+xml' : 'text/html; charset=utf-8';
      response.writeHead(200, { 'content-type': type, ...(request.url === '/sandboxed' ? FILE_RESPONSE_HEADERS : {}) });
      response.end(body);
    });
    await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
    const controlUrl = `http://127.0.0.1:${(control.address() as AddressInfo).port}`;
    let browser: Browser | undefined;
    try {
      browser = await launch(browserPath as string);
      const page = await browser.newPage();
      const titleAfter = async (url: string) => {
        await page.goto(url);
        // The script, if it runs, runs while the document loads; give a late one a moment too.
        await page.waitForTimeout(100);
        return page.evaluate<string>('document.title');
      };
      assert.equal(await titleAfter(`${controlUrl}/html`), 'pwned', 'the HTML runs as a page');
      assert.equal(await titleAfter(`${controlUrl}/svg`), 'pwned', 'the SVG runs as a page');
      assert.notEqual(await titleAfter(`${controlUrl}/sandboxed`), 'pwned', 'the file routes’ headers stop it');

      for (const file of MALICIOUS) {
        assert.notEqual(await titleAfter(`${app().apiUrl}/library/covers/${tracks[file]}`), 'pwned', file);
        assert.notEqual(await titleAfter(`${app().apiUrl}/rest/getCoverArt.view?${new URLSearchParams({ ...auth, id: tracks[file]! })}`), 'pwned', file);
      }
      // Nothing wrote to the origin's storage either (the web app's origin: the same host).
      await page.goto(`${app().apiUrl}/library/covers/${tracks['Liar/png.mp3']}`);
      await page.goto(app().apiUrl);
      assert.equal(await page.evaluate<string | null>('localStorage.getItem("pwned")'), null);
    } finally {
      await browser?.close();
      control.close();
    }
  });
});
