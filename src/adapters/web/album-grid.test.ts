/**
 * Album grids and the gapless next song in real Chromium: a new user's library opens on its albums
 * as a grid of linked cards (a cover or its placeholder), two columns on a phone; playing an album,
 * the second song starts in the element that loaded it ahead, at once, and each song's now-playing
 * and play is recorded once.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { scanLibrary } from '../../core/library/scan/index.ts';
import { testPng, writeTestTrack } from '../../core/library/test-music.ts';
import { describeWithApp, scrobbleCount } from '../../app/testing.ts';
import { accountButton, chromiumPath, playedTimesOnceSent, screenshots, until, VIEWPORTS, launchPage } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;
const musicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-grid-music-'));

/** What the page's recorder (below) saw of the <audio> elements. */
interface AudioEvent {
  event: 'ended' | 'playing';
  src: string;
  at: number;
  /** At an end: the other elements, loaded ahead. */
  others?: { src: string; readyState: number }[];
  /** At a start: the element's readyState when the previous song ended, if it was there then. */
  readyAtPreviousEnd?: string;
}

/**
 * Records, in the page, every <audio> end and start (media events do not bubble: captured on the
 * document), marking at each end how far the other elements had loaded. Songs play at 4× so the
 * two plays count (half of 31 s each) in seconds rather than half a minute. Passed as source: the
 * server's types have no DOM, and evaluate runs outside the page's CSP.
 */
const RECORDER = `(() => {
  const log = [];
  window.audioLog = log;
  document.addEventListener('ended', (event) => {
    const others = [...document.querySelectorAll('audio')].filter((element) => element !== event.target);
    for (const element of others) element.dataset.readyAtPreviousEnd = String(element.readyState);
    log.push({ event: 'ended', src: event.target.src, at: performance.now(), others: others.map((e) => ({ src: e.src, readyState: e.readyState })) });
  }, true);
  document.addEventListener('playing', (event) => {
    event.target.playbackRate = 4;
    log.push({ event: 'playing', src: event.target.src, at: performance.now(), readyAtPreviousEnd: event.target.dataset.readyAtPreviousEnd });
  }, true);
})()`;

const audioLog = (page: Page) => page.evaluate<AudioEvent[]>('window.audioLog');

// What the browser does (the grid, the preloaded next song); recording plays runs on both backends in the player's suites.
describeWithApp(
  'album grids and the gapless next song in Chromium',
  (app) => {
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];
    /** The player's recording calls, by procedure, with the song titles they carried. */
    const recorded: { nowPlaying: string[]; scrobbles: string[] } = { nowPlaying: [], scrobbles: [] };

    before(async () => {
      if (skip) return;
      const pair = { album: 'Two Halves', albumArtist: 'The Pair', artist: 'The Pair', picture: { mime: 'image/png' as const, data: testPng('halves') } };
      // 31 s each: just long enough to count (half, 15.5 s, must play).
      await writeTestTrack(musicDir, 'The Pair/Two Halves/01 First.mp3', 'mp3', { ...pair, title: 'First', trackNumber: 1 }, { durationMs: 31_000 });
      await writeTestTrack(musicDir, 'The Pair/Two Halves/02 Second.mp3', 'mp3', { ...pair, title: 'Second', trackNumber: 2 }, { durationMs: 31_000 });
      // No picture: the card shows the placeholder.
      await writeTestTrack(musicDir, 'Bare Walls/Plain/01 Nothing.mp3', 'mp3', { album: 'Plain', artist: 'Bare Walls', title: 'Nothing', trackNumber: 1 });
      await scanLibrary(app().ctx);
      // The scan writes cover URLs under the configured public URL; this test's server has a port of its own.
      const { db, config } = app().ctx;
      for (const album of await db.selectFrom('albums').select(['id', 'album_art']).where('album_art', 'is not', null).execute()) {
        await db
          .updateTable('albums')
          .set({ album_art: album.album_art!.replace(config.publicUrl, app().apiUrl) })
          .where('id', '=', album.id)
          .execute();
      }
      ({ browser, page } = await launchPage(browserPath as string, { errors }));
      page.on('request', (request) => {
        const url = request.url();
        if (url.includes('/xrpc/app.svc.library.updateNowPlaying')) recorded.nowPlaying.push(url);
        if (url.includes('/xrpc/app.svc.scrobble.createScrobble')) recorded.scrobbles.push((request.postDataJSON() as { title: string }).title);
      });
    });
    after(async () => {
      await browser?.close();
      fs.rmSync(musicDir, { recursive: true, force: true });
    });

    test('the library opens on a grid of album cards, two columns on a phone', { skip }, async () => {
      await page.goto(app().apiUrl);
      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.getByLabel('Handle').fill('gridder');
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByRole('button', { name: 'Create account' }).click();
      await accountButton(page).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Library' }).click();

      const grid = page.getByRole('list', { name: 'albums' });
      await grid.waitFor();
      assert.equal(await grid.getByRole('link').count(), 2);
      const halves = grid.getByRole('link', { name: /^Two Halves/ });
      assert.match((await halves.getAttribute('href')) ?? '', /^\/library\/albums\/[^/]+$/);
      // Named by what it shows, title first, words apart.
      await grid.getByRole('link', { name: /^Two Halves The Pair 2 songs/ }).waitFor();
      // One card's cover loads; the other shows its placeholder's initials.
      await halves.locator('img').evaluate((image: { decode(): Promise<void> }) => image.decode());
      assert.ok(await halves.locator('img').evaluate((image: { naturalWidth: number }) => image.naturalWidth > 0));
      assert.equal(
        await grid
          .getByRole('link', { name: /^Plain/ })
          .locator('.art-placeholder')
          .textContent(),
        'PL',
      );

      // From the keyboard: a card takes focus and shows the focus ring.
      await halves.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      assert.equal(await halves.evaluate((link: { matches(selector: string): boolean }) => link.matches(':focus-visible')), true);
      assert.notEqual(await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle'), 'none');

      await page.setViewportSize(VIEWPORTS.phone);
      const columns = await page.evaluate<string>(`getComputedStyle(document.querySelector('.album-grid')).gridTemplateColumns`);
      assert.equal(columns.split(' ').length, 2, columns);
      assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= VIEWPORTS.phone.width);
      await page.setViewportSize(VIEWPORTS.desktop);
      await screenshots(page, 'album-grid');
      assert.deepEqual(errors, []);
    });

    test('the second song starts in the element loaded ahead, and both plays are recorded once', { skip }, async () => {
      await page.evaluate(RECORDER);
      await page.getByRole('link', { name: /^Two Halves/ }).click();
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      const bar = page.getByRole('region', { name: 'Player' });
      await bar.getByText('First').waitFor();

      const log = await until(
        'both songs to end',
        () => audioLog(page),
        (events) => events.filter((event) => event.event === 'ended').length === 2,
        60_000,
      );
      const firstEnd = log.findIndex((event) => event.event === 'ended');
      const ended = log[firstEnd]!;
      const second = log.slice(firstEnd).find((event) => event.event === 'playing')!;
      assert.ok(second, JSON.stringify(log));
      assert.notEqual(second.src, ended.src);
      // The second song's element was already there and loaded (HAVE_FUTURE_DATA or more) when the first ended, and is the one that played.
      assert.deepEqual(
        ended.others?.map((other) => other.src),
        [second.src],
      );
      assert.ok(Number(second.readyAtPreviousEnd) >= 3, JSON.stringify(log));
      assert.ok(second.at - ended.at < 2000, `${second.at - ended.at} ms between the songs`);
      await bar.getByText('Second').waitFor();
      assert.equal(await page.evaluate<string | undefined>('navigator.mediaSession?.metadata?.title'), 'Second');

      // Each song: now-playing once, the play once.
      const did = (await app().ctx.db.selectFrom('users').select('did').where('handle', '=', 'gridder').executeTakeFirstOrThrow()).did;
      await until(
        'both plays recorded',
        () => scrobbleCount(app(), did),
        (count) => count >= 2,
      );
      assert.equal(recorded.nowPlaying.length, 2);
      assert.deepEqual(recorded.scrobbles, ['First', 'Second']);
      assert.equal(await scrobbleCount(app(), did), 2);
      // Each ended: its play says how long it was listened to, at 4× the whole song in a quarter of the time.
      const played = await playedTimesOnceSent(app().ctx.db, did);
      assert.equal(played.length, 2);
      for (const time of played) assert.ok(time >= 15_500 && time <= 31_000, `${time} ms`);
      assert.deepEqual(errors, []);
    });
  },
  { musicDir },
  { storage: 'one' },
);
