/**
 * An artist's page's listening over time in real Chromium: plays per month (everyone's and the
 * signed-in viewer's), rank, first and last plays and top listeners, with the charts' months in
 * words for screen readers, at desktop and phone width, light and dark, without console errors.
 * Screenshots: artifacts/screenshots/entity-stats-*.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { describeWithApp } from '../../app/testing.ts';
import { listenerWithHistory, type TestListen } from '../../core/scrobbling/testing.ts';
import { accountButton, chromiumPath, screenshots, launchPage } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;
const MINUTE = 60_000;

/** An instant `back` UTC months before this one (the 10th at noon; this month: minutes ago). */
function monthsAgo(back: number, minutes = 1): string {
  const now = new Date();
  if (back === 0) return new Date(now.getTime() - minutes * MINUTE).toISOString();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 10, 12, minutes)).toISOString();
}

const monthName = (back: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 15)).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
};

const play = (at: string, title: string): TestListen => ({ at, artist: 'Tidal Lines', title, album: 'Shorelines' });

// What the browser shows of the statistics, which app.svc.stats.getEntityStats's suite checks on both backends.
describeWithApp(
  "an artist's page: listening over time",
  (app) => {
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];
    before(async () => {
      if (skip) return;
      ({ browser, page } = await launchPage(browserPath as string, { page: { locale: 'en-US' }, errors, consoleErrors: true }));
    });
    after(() => browser?.close());

    test('the chart with its months, first and last plays, and top listeners; the viewer’s own line when signed in', { skip }, async () => {
      await listenerWithHistory(app(), 'wave', [play(monthsAgo(2), 'Undertow'), play(monthsAgo(0, 5), 'Undertow'), play(monthsAgo(0, 4), 'Riptide')]);
      await listenerWithHistory(app(), 'shore', [play(monthsAgo(2, 2), 'Riptide'), play(monthsAgo(0, 1), 'Riptide')]);
      const artist = await app().ctx.db.selectFrom('artists').select('id').where('name', '=', 'Tidal Lines').executeTakeFirstOrThrow();

      await page.goto(`${app().apiUrl}/artists/${artist.id}`);
      const section = page.getByRole('region', { name: 'Listening over time' });
      await section.getByRole('img', { name: /^Plays per month from .*: 5 in all, the most \(3\) in / }).waitFor();
      const table = section.getByRole('table', { name: /per month/ });
      assert.equal(await table.locator('tbody tr').count(), 24, 'two years of months');
      assert.deepEqual(
        await table
          .getByRole('row', { name: monthName(0) })
          .locator('td')
          .allTextContents(),
        ['3', '#1'],
      );
      assert.deepEqual(
        await table
          .getByRole('row', { name: monthName(1) })
          .locator('td')
          .allTextContents(),
        ['0', '–'],
      );
      await section.getByRole('img', { name: /^Rank among artists by plays/ }).waitFor();

      const plays = section.locator('dl.entity-plays');
      assert.match(await plays.textContent().then(String), /First play.* by wave · Undertow.*Last play.* by shore · Riptide/);
      const listeners = section.locator('ol.entity-listeners li');
      assert.deepEqual(await listeners.getByRole('link').allTextContents(), ['wave', 'shore']);
      assert.deepEqual(await listeners.locator('.stats-count').allTextContents(), ['3', '2']);
      assert.equal(await listeners.getByRole('link').first().getAttribute('href'), '/u/wave');
      assert.equal(await section.getByText('You', { exact: true }).count(), 0, 'signed out: no line of your own');

      await page.goto(`${app().apiUrl}/signin`);
      await page.getByLabel('Handle or DID').fill('shore');
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await accountButton(page).waitFor();
      await page.goto(`${app().apiUrl}/artists/${artist.id}`);
      await section.getByRole('img', { name: /2 of them yours\.$/ }).waitFor();
      assert.deepEqual(
        await table
          .getByRole('row', { name: monthName(0) })
          .locator('td')
          .allTextContents(),
        ['3', '1', '#1'],
      );
      await section.getByText('Your first play').waitFor();
      await section.getByText('Your last play').waitFor();
      await section.scrollIntoViewIfNeeded();
      await screenshots(page, 'entity-stats');
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshots(page, 'entity-stats-dark');
      assert.deepEqual(errors, []);
    });
  },
  {},
  { storage: 'one' },
);
