/**
 * The web app under its Content-Security-Policy in real Chromium: every page of a signed-in user,
 * the player streaming a song of the music folder and an avatar from another host all work with
 * no violation reported, and script injected into the page does not run.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from 'listenbrainz';
import type { Browser, Locator, Page } from 'playwright-core';
import { scanLibrary } from '../../core/library/scan/index.ts';
import { testJpeg, writeTestTrack } from '../../core/library/test-music.ts';
import { describeWithApp } from '../../app/testing.ts';
import { chromiumPath, launchPage } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;
const musicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-csp-music-'));
const PASSWORD = 'a long enough password';

/** What the test touches of page elements (the server's types have no DOM). */
type ImageElement = { decode(): Promise<void>; naturalWidth: number };
type MediaElement = { readyState: number; addEventListener(type: string, listener: (value: unknown) => void): void };

/**
 * The image's width once the browser has decoded it; decoding fails when it was refused or broken.
 * (Functions passed to evaluate run outside the page's CSP; waitForFunction polls with eval, which the CSP refuses.)
 */
const decodedWidth = (image: Locator) => image.evaluate((element: ImageElement) => element.decode().then(() => element.naturalWidth));

describeWithApp(
  'web app under its CSP in Chromium',
  (app) => {
    let browser: Browser;
    let page: Page;
    let images: http.Server;
    let avatar: string;
    const violations: string[] = [];
    const errors: string[] = [];

    before(async () => {
      // Another origin serving an image, as the hosts of avatars and album art are.
      const jpeg = testJpeg('avatar');
      images = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg));
      await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
      avatar = `http://127.0.0.1:${(images.address() as AddressInfo).port}/me.jpg`;
      if (skip) return;
      fs.mkdirSync(musicDir, { recursive: true });
      const album = {
        album: 'Night Drive',
        albumArtist: 'The Examples',
        artist: 'The Examples',
        picture: { mime: 'image/jpeg' as const, data: testJpeg('cover') },
      };
      await writeTestTrack(musicDir, 'The Examples/Night Drive/01 Neon.mp3', 'mp3', { ...album, title: 'Neon', trackNumber: 1 }, { durationMs: 3000 });
      await scanLibrary(app().ctx);
      ({ browser, page } = await launchPage(browserPath as string));
      // Chromium reports a blocked load or script on the console; the event also names what the page itself refused.
      await page.addInitScript(
        "document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`))",
      );
      page.on('console', (message) => /Content Security Policy|CSP violation/i.test(message.text()) && violations.push(message.text()));
      page.on('pageerror', (error) => errors.push(error.message));
    });
    after(async () => {
      await browser?.close();
      await new Promise((resolve) => images?.close(resolve));
      fs.rmSync(musicDir, { recursive: true, force: true });
    });

    test('a signed-in user visits every main page and plays a song, with no violation', { skip }, async () => {
      const user = await app().signup('guarded', PASSWORD);
      // An avatar set before Earshot kept avatars is still a link to its host (profiles/avatars.ts).
      await app().ctx.db.updateTable('users').set({ avatar }).where('handle', '=', 'guarded').execute();
      const key = (await app().procedure('app.svc.apikey.createApikey', { name: 'phone' }, user.token)).body.key as string;
      const now = Math.floor(Date.now() / 1000);
      const plays = ['Teardrop', 'Angel', 'Inertia Creeps'].map((title, i) => ({
        listened_at: now - 600 * (i + 1),
        track_metadata: { artist_name: 'Massive Attack', track_name: title, release_name: 'Mezzanine' },
      }));
      assert.deepEqual(await new Client(key, `${app().scrobblerUrl}/`).submitListen({ listen_type: 'import', payload: plays }), { status: 200 });

      const nav = page.getByRole('navigation', { name: 'Main' });
      await page.goto(app().apiUrl);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Handle or DID').fill('guarded');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Signed in as/ })
        .waitFor();
      await page.getByRole('link', { name: 'Teardrop' }).first().waitFor();

      await nav.getByRole('link', { name: 'Profile' }).click();
      await page.getByRole('heading', { name: 'guarded' }).waitFor();
      await page.getByRole('region', { name: 'Top songs' }).getByRole('link', { name: 'Teardrop' }).waitFor();
      // The avatar from the other host loaded: img-src lets any http(s) image in.
      assert.ok(await decodedWidth(page.locator('img.avatar')));

      await page.getByRole('link', { name: 'Your Wrapped' }).click();
      await page.getByLabel('Time zone').waitFor();
      await nav.getByRole('link', { name: 'Songs', exact: true }).click();
      await page.getByRole('link', { name: 'Teardrop' }).first().click();
      await page.getByRole('heading', { name: 'Teardrop' }).waitFor();
      await page.getByRole('searchbox', { name: 'Search artists, albums, songs and people' }).fill('Massive');
      await page.getByRole('searchbox', { name: 'Search artists, albums, songs and people' }).press('Enter');
      await page.getByRole('link', { name: 'Massive Attack' }).first().waitFor();

      // The player bar: the song's cover, and the song streamed into <audio> through its signed URL.
      await nav.getByRole('link', { name: 'Library' }).click();
      await page.getByRole('link', { name: 'Artists' }).click();
      await page.getByRole('link', { name: 'The Examples' }).click();
      await page.getByRole('link', { name: 'Night Drive' }).click();
      const stream = page.waitForResponse((response) => response.url().includes('/library/stream/'));
      await page.getByRole('button', { name: 'Play Neon' }).click();
      assert.ok((await stream).ok());
      // The browser read the stream's metadata: media-src lets the audio element load it.
      await page
        .locator('audio')
        .evaluate((audio: MediaElement) => audio.readyState >= 1 || new Promise((resolve) => audio.addEventListener('loadedmetadata', resolve)));
      // The player's cover, from this origin's /library/covers, is a decoded image.
      assert.ok(await decodedWidth(page.locator('.player-bar img[src*="/library/covers/"]')));

      await nav.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('region', { name: 'Access tokens' }).waitFor();
      await nav.getByRole('link', { name: 'Earshot' }).click();
      await page.getByRole('link', { name: 'Teardrop' }).first().waitFor();

      assert.deepEqual(violations, []);
      assert.deepEqual(errors, []);
    });

    test('script injected into the page does not run, and the attempt is reported', { skip }, async () => {
      const ran = await page.evaluate<string | null>(`(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = "script"';
      document.body.append(script);
      const holder = document.createElement('div');
      holder.innerHTML = '<img src="/nothing.png" onerror="window.injected = \\'handler\\'">';
      document.body.append(holder);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return window.injected ?? null;
    })()`);
      assert.equal(ran, null);
      assert.ok(
        violations.some((text) => /script-src/.test(text)),
        violations.join('\n'),
      );
    });
    // What the browser may load under the CSP: the storage behind it is covered by the API's own suites.
  },
  { musicDir },
  { storage: 'one' },
);
