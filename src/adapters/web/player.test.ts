/**
 * The player bar in real Chromium: a new user signs up, plays an album of the scanned music folder
 * with no API key, and the music goes on while they move across four pages; the play is recorded
 * and shows on their profile, and a track too short to count says so.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { scanLibrary } from '../../core/library/scan/index.ts';
import { testJpeg, writeTestTrack } from '../../core/library/test-music.ts';
import { describeWithApp, scrobbleCount } from '../../app/testing.ts';
import { accountButton, chromiumPath, playedTimesOnceSent, screenshots, launchPage } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;
const musicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-player-music-'));

/** What the test reads of the <audio> element (the server's types have no DOM). */
type AudioElement = { currentTime: number; paused: boolean; src: string };
const audioState = (audio: Locator) => audio.evaluate((element: AudioElement) => ({ at: element.currentTime, paused: element.paused, src: element.src }));

/** Resolves once the element's position is past `seconds` (polled from the test: the page's CSP refuses waitForFunction's eval). */
async function playedPast(audio: Locator, seconds: number, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { at } = await audioState(audio);
    if (at > seconds) return at;
    if (Date.now() > deadline) throw new Error(`the audio stayed at ${at} s, never past ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describeWithApp(
  'the player bar in Chromium',
  (app) => {
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];

    before(async () => {
      if (skip) return;
      const album = {
        album: 'Long Roads',
        albumArtist: 'The Drivers',
        artist: 'The Drivers',
        picture: { mime: 'image/jpeg' as const, data: testJpeg('roads') },
      };
      // 34 s: long enough to count (half of it, 17 s, must play) and to outlast the walk across the pages.
      await writeTestTrack(musicDir, 'The Drivers/Long Roads/01 Highway.mp3', 'mp3', { ...album, title: 'Highway', trackNumber: 1 }, { durationMs: 34_000 });
      await writeTestTrack(musicDir, 'The Drivers/Long Roads/02 Jingle.mp3', 'mp3', { ...album, title: 'Jingle', trackNumber: 2 }, { durationMs: 12_000 });
      await scanLibrary(app().ctx);
      ({ browser, page } = await launchPage(browserPath as string, { errors }));
    });
    after(async () => {
      await browser?.close();
      fs.rmSync(musicDir, { recursive: true, force: true });
    });

    test('plays an album with the sign-in alone, on across four pages, and records the play', { skip }, async () => {
      const nav = page.getByRole('navigation', { name: 'Main' });
      await page.goto(app().apiUrl);
      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.getByLabel('Handle').fill('traveller');
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByRole('button', { name: 'Create account' }).click();
      await accountButton(page).waitFor();

      // The library opens on its albums, with no API key asked for.
      await nav.getByRole('link', { name: 'Library' }).click();
      await page.getByRole('link', { name: 'Albums' }).and(page.locator('[aria-current="page"]')).waitFor();
      assert.equal(await page.getByText('API key').count(), 0);
      await page.getByRole('link', { name: 'Long Roads' }).click();
      const stream = page.waitForResponse((response) => response.url().includes('/library/stream/'));
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      assert.ok((await stream).ok());

      const bar = page.getByRole('region', { name: 'Player' });
      await bar.getByText('Highway').waitFor();
      // The element playing (the next song's may be loading ahead, hidden).
      const audio = bar.locator('audio:not([hidden])');
      let at = await playedPast(audio, 0.5);
      assert.match((await audioState(audio)).src, /\/library\/stream\/[0-9a-f-]+\?u=.+&exp=\d+&sig=/);
      await screenshots(page, 'player-bar');

      // Four pages away from the library, the same element plays on.
      const pages: [string, () => Promise<void>][] = [
        ['Profile', () => page.getByRole('heading', { name: 'traveller' }).waitFor()],
        ['Songs', () => page.getByRole('heading', { name: 'Songs' }).first().waitFor()],
        ['Search', () => page.getByRole('heading', { name: 'Search' }).first().waitFor()],
        ['Settings', () => page.getByRole('heading', { name: 'Settings' }).first().waitFor()],
      ];
      for (const [name, arrived] of pages) {
        await nav.getByRole('link', { name, exact: true }).click();
        await arrived();
        at = await playedPast(audio, at + 0.5);
        assert.equal((await audioState(audio)).paused, false, `paused on ${name}`);
      }

      // Space pauses and plays again while no text field has focus (the bar says so).
      await bar.getByText('Space: play or pause').waitFor();
      await page.locator('h1').first().click();
      await page.keyboard.press('Space');
      await bar.getByRole('button', { name: 'Play', exact: true }).waitFor();
      await page.keyboard.press('Space');
      await bar.getByRole('button', { name: 'Pause', exact: true }).waitFor();

      // The queue drawer shows the album with the song playing marked.
      await bar.getByRole('button', { name: 'Queue', exact: true }).click();
      const drawer = page.locator('#player-queue');
      await drawer.getByText('Playing').waitFor();
      await drawer.getByRole('button', { name: 'Play Jingle' }).waitFor();
      await drawer.getByRole('button', { name: 'Close' }).click();

      // Half the song played: the play is recorded, and shows on the profile.
      await bar.getByText('Play recorded.').waitFor({ timeout: 30_000 });
      const did = (await app().ctx.db.selectFrom('users').select('did').where('handle', '=', 'traveller').executeTakeFirstOrThrow()).did;
      assert.equal(await scrobbleCount(app(), did), 1);
      await nav.getByRole('link', { name: 'Profile' }).click();
      await page.getByRole('heading', { name: 'History' }).waitFor();
      await page.getByText('Highway').first().waitFor();

      // The next track is 12 s long: the bar says its plays never count.
      await bar.getByRole('button', { name: 'Next' }).click();
      await bar.getByText('Jingle').waitFor();
      // Skipped: the recorded play now says how long it was listened to, past half the song and not more than all of it.
      const [playedMs] = await playedTimesOnceSent(app().ctx.db, did);
      assert.ok(playedMs! >= 17_000 && playedMs! <= 34_000, `${playedMs} ms`);
      await bar.getByText('30 seconds or shorter, so its plays are never recorded').waitFor();
      await screenshots(page, 'player-bar-short-track');

      // No API key was made on the way.
      const keys = await app()
        .ctx.db.selectFrom('api_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(keys.n), 0);
      assert.deepEqual(errors, []);
    });
  },
  { musicDir },
);
