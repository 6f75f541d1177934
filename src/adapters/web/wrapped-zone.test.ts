/**
 * The profile's and Wrapped's counts in a zone far from UTC, in real Chromium: plays a minute either
 * side of local midnight where a rolling period starts, so the profile's figures, chart and clock
 * agree only if they count one window; the Wrapped's per-day chart in the chosen zone; the saved
 * image with long song titles wrapped onto a second line (the picture grows to hold them).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { describeWithApp } from '../../app/testing.ts';
import { listenerWithHistory, type TestListen } from '../../core/scrobbling/testing.ts';
import { chromiumPath, SCREENSHOTS, screenshots, waitForText, launchPage } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;
const DAY = 86_400_000;
/** No daylight saving time, and a name browsers keep (they call Asia/Kolkata Asia/Calcutta): local midnight is 15:00 UTC the day before. */
const ZONE = 'Asia/Tokyo';
const LONG_TITLE = 'A Song Whose Title Runs On Far Longer Than Any Line Of The Saved Picture Could Hold';

const localDate = (at: number) => new Date(at).toLocaleDateString('en-CA', { timeZone: ZONE });
const play = (at: number, title: string): TestListen => ({ at: new Date(at).toISOString(), artist: 'Night Owl', title });

/** A PNG's height, from its IHDR chunk. */
const pngHeight = (png: Buffer) => png.readUInt32BE(20);

describeWithApp(
  "a period's counts in the viewer's zone",
  (app) => {
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];
    before(async () => {
      if (skip) return;
      ({ browser, page } = await launchPage(browserPath as string, { page: { timezoneId: ZONE }, errors }));
    });
    after(() => browser?.close());

    test('the profile, its clock and the Wrapped count the same plays; the Wrapped charts local days; the image wraps a long title', { skip }, async () => {
      const now = Date.now();
      // Midnight starting the local day 30 × 24 hours ago reaches back to: the profile used to start its chart and clock there.
      const midnight = Date.parse(`${localDate(now - DAY * 29)}T00:00:00+09:00`);
      await listenerWithHistory(app(), 'nightowl', [
        play(midnight - 60_000, LONG_TITLE),
        play(midnight + 60_000, LONG_TITLE),
        play(now - 3_600_000, 'Short'),
        // Four more long titles: with them the top songs are five two-line rows, taller than five one-line rows.
        ...[1, 2, 3, 4].map((take) => play(now - take * 60_000, `${LONG_TITLE} (take ${take})`)),
      ]);

      // Signed out, another user's statistics are counted in the browser's zone.
      await page.goto(`${app().apiUrl}/u/nightowl`);
      await page.getByText(`Days are counted in ${ZONE}.`).waitFor();
      const summary = page.locator('.profile-stats dl.counts').first();
      await waitForText(summary.locator('dd').first(), '7');
      await page.getByText(`7 plays by weekday and hour in ${ZONE}`).waitFor();

      await page.getByRole('link', { name: 'See the full Wrapped for this period' }).click();
      await page.waitForURL(/period=last30days/);
      await waitForText(page.locator('.wrapped-figures dd').first(), '7');
      await page.getByText(`Days in ${ZONE}.`).waitFor();
      const days = page.getByRole('img', { name: new RegExp(`^Plays per day in ${ZONE} from .*, 7 in all\\.$`) });
      await days.waitFor();
      await screenshots(page, 'wrapped-zone');

      const [image] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save as image' }).click()]);
      assert.equal(image.suggestedFilename(), 'wrapped-nightowl-last30days.png');
      const png = fs.readFileSync(await image.path());
      assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
      assert.equal(pngHeight(png), 1620 + 5 * 30, 'five more lines of 30 px: each long title on two lines');
      fs.writeFileSync(path.join(SCREENSHOTS, 'wrapped-zone-image.png'), png);
      assert.deepEqual(errors, []);
    });
  },
  {},
  { storage: 'one' },
);
