/**
 * Accessibility of every page of the web app in real Chromium: axe-core checks each one, signed
 * out and signed in with plays, in light and dark, and none may show a serious or critical
 * violation, or skip a heading level. Also what a mistyped address gets: the app's own "Not found" page with a 404 status,
 * and a link naming no song a heading that says so in words.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import type { AxeResults } from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { describeWithApp } from '../../app/testing.ts';
import { chromiumPath, screenshots, launchPage } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;

/** axe-core's browser build, evaluated in the page (evaluate runs outside the page's CSP, which refuses injected scripts). */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The default WCAG rules, plus the one that compares a control's name with its visible words (off by default in axe). */
const AXE_RUN = `axe.run(document, { resultTypes: ['violations'], rules: { 'label-content-name-mismatch': { enabled: true } } })`;

/** A skipped heading level is only "moderate" to axe, but it is how a screen reader user finds their way on a page. */
const SKIPPED_LEVEL = 'heading-order';

/** Until every "Loading…" status is gone: waitForFunction polls with eval, which the CSP refuses. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  const loading = page.getByRole('status').filter({ hasText: /^(Loading|Counting)/ });
  for (let waited = 0; (await loading.count()) > 0; waited += 100) {
    assert.ok(waited < 15_000, `${page.url()} is still loading`);
    await page.waitForTimeout(100);
  }
}

/** The serious and critical violations (and skipped heading levels) on the page as it is now, in words a failure message can show. */
async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>('typeof axe !== "undefined"'))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate<AxeResults>(AXE_RUN);
  assert.ok(results.passes.length > 0, `axe checked nothing on ${page.url()}`);
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical' || SKIPPED_LEVEL === violation.id)
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}, ${violation.nodes.length}): ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
}

describeWithApp(
  'web app accessibility (axe-core in Chromium)',
  (app) => {
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];
    before(async () => {
      if (skip) return;
      ({ browser, page } = await launchPage(browserPath as string, { errors }));
    });
    after(() => browser?.close());

    /** Visits each path and collects what axe finds, in light and then dark. */
    async function audit(paths: string[]): Promise<string[]> {
      const found: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const path of paths) {
          await page.goto(`${app().apiUrl}${path}`);
          await settled(page);
          for (const violation of await seriousViolations(page)) found.push(`${path} [${scheme}] ${violation}`);
        }
      }
      return found;
    }

    test('an unknown path answers 404 with the app and its "Not found" page; page paths 200; API paths keep JSON 404s', { skip }, async () => {
      for (const path of ['/nowhere', '/songs/a/b', '/u/someone/elsewhere', '/library/a/b/c']) {
        const answer = await fetch(`${app().apiUrl}${path}`);
        assert.equal(answer.status, 404, path);
        assert.match(answer.headers.get('content-type') ?? '', /^text\/html/, path);
        assert.match(await answer.text(), /<div id="root">/, path);
      }
      for (const path of ['/', '/songs', '/songs/not-an-id', '/u/someone', '/u/someone/wrapped', '/library/albums/1', '/search?q=x']) {
        assert.equal((await fetch(`${app().apiUrl}${path}`)).status, 200, path);
      }
      const api = await fetch(`${app().apiUrl}/xrpc/app.svc.nothing`);
      assert.equal(api.status, 404);
      assert.match(api.headers.get('content-type') ?? '', /json/);

      const response = await page.goto(`${app().apiUrl}/nowhere`);
      assert.equal(response?.status(), 404);
      await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
      await page.getByText('There is no page at /nowhere.').waitFor();
    });

    test("a link that names no song says so under a heading, in words instead of the validator's", { skip }, async () => {
      await page.goto(`${app().apiUrl}/songs/not-an-id`);
      await page.getByRole('heading', { level: 1, name: 'Broken link' }).waitFor();
      await page.getByRole('alert').filter({ hasText: 'This link is broken: the address does not name a song.' }).waitFor();
      assert.equal(await page.getByText('querystring').count(), 0);
      await screenshots(page, 'broken-link');
      await page.goto(`${app().apiUrl}/albums/00000000-0000-4000-8000-000000000000`);
      await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
    });

    test('every page has no serious or critical axe violation, signed out and signed in with plays, light and dark', { skip }, async () => {
      assert.deepEqual(await audit(['/', '/signin', '/signup', '/songs', '/nowhere']), []);

      const { token } = await app().signup('listener', 'a long enough password');
      const now = Date.now();
      for (const [i, title] of ['Teardrop', 'Angel', 'Inertia Creeps'].entries()) {
        const play = { title, artist: 'Massive Attack', album: 'Mezzanine', timestamp: new Date(now - 600_000 * (i + 1)).toISOString() };
        assert.equal((await app().procedure('app.svc.scrobble.createScrobble', play, token)).status, 200);
      }
      // Signed in through the form, so the session is this browser's.
      await page.goto(`${app().apiUrl}/signin`);
      await page.getByLabel('Handle or DID').fill('listener');
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const account = page.getByRole('banner').getByRole('button', { name: 'Signed in as listener' });
      await account.waitFor();

      await page.goto(`${app().apiUrl}/songs`);
      const songPath = await page.getByRole('link', { name: 'Teardrop' }).first().getAttribute('href');
      await page.goto(`${app().apiUrl}${songPath}`);
      const artistPath = await page.getByRole('main').getByRole('link', { name: 'Massive Attack' }).first().getAttribute('href');
      const albumPath = await page.getByRole('main').getByRole('link', { name: 'Mezzanine' }).first().getAttribute('href');
      const pages = ['/', '/u/listener', '/songs', songPath!, artistPath!, albumPath!, '/search?q=massive', '/settings', '/u/listener/wrapped'];
      const library = ['/library', '/library/playlists', '/library/artists', '/library/albums', '/library/folders', '/library/queue'];
      assert.deepEqual(await audit([...pages, ...library, '/nowhere', '/songs/not-an-id']), []);
      assert.deepEqual(errors, []);
    });

    test('the account menu: a disclosure button with the handle, opened by keyboard, closed by Escape', { skip }, async () => {
      await page.goto(`${app().apiUrl}/settings`);
      // This browser's session by its device name, not its user-agent string.
      await page.getByRole('region', { name: 'Signed-in devices' }).getByText('Chrome on Linux').waitFor();
      await page.getByLabel('New password', { exact: true }).waitFor();
      const account = page.getByRole('banner').getByRole('button', { name: 'Signed in as listener' });
      assert.equal(await account.getAttribute('aria-expanded'), 'false');
      await account.focus();
      await page.keyboard.press('Enter');
      assert.equal(await account.getAttribute('aria-expanded'), 'true');
      const menu = page.getByRole('banner').getByRole('listitem');
      assert.deepEqual(await menu.allTextContents(), ['Profile', 'Settings', 'Wrapped', 'Sign out']);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Escape');
      assert.equal(await account.getAttribute('aria-expanded'), 'false');
      assert.match(await page.evaluate<string>('document.activeElement?.textContent ?? ""'), /Signed in as listener/);
      await account.click();
      await screenshots(page, 'account-menu');
      await page.getByRole('banner').getByRole('link', { name: 'Wrapped' }).click();
      await page.getByRole('heading', { level: 1, name: 'Your Wrapped' }).waitFor();
      assert.equal(await account.getAttribute('aria-expanded'), 'false');
    });
  },
  {},
  // What a browser shows and announces: storage is only on the way.
  { storage: 'one' },
);
