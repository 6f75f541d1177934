/**
 * The web app as an installable app in real Chromium: the page links a manifest Chromium can install
 * from (name, start URL, standalone display, 192 and 512 px icons served as PNG), and its service
 * worker (web/public/sw.js) keeps the shell, so the app opens with no connection.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeWithApp } from '../../app/testing.ts';
import { chromiumPath, launch, VIEWPORTS } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;

interface Manifest {
  name: string;
  start_url: string;
  display: string;
  icons: { src: string; sizes: string; type: string }[];
}

/** What the test reads of the page's service worker container (the server's types have no DOM). */
type Worker = { state: string; addEventListener(type: 'statechange', listener: () => void): void };
type WorkerNavigator = { serviceWorker: { ready: Promise<{ active: Worker | null }> } };

describeWithApp(
  'the web app installed and offline, in Chromium',
  (app) => {
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    before(async () => {
      if (skip) return;
      browser = await launch(browserPath as string);
      context = await browser.newContext({ viewport: VIEWPORTS.desktop });
      page = await context.newPage();
    });
    after(() => browser?.close());

    test('the page links a manifest with a name, a start URL, standalone display and PNG icons of 192 and 512 px', { skip }, async () => {
      await page.goto(`${app().apiUrl}/`);
      const href = await page.locator('link[rel="manifest"]').getAttribute('href');
      assert.equal(href, '/manifest.webmanifest');
      const answer = await fetch(`${app().apiUrl}${href}`);
      assert.equal(answer.headers.get('content-type'), 'application/manifest+json');
      const manifest = (await answer.json()) as Manifest;
      assert.deepEqual([manifest.name, manifest.start_url, manifest.display], ['Earshot', '/', 'standalone']);
      for (const size of ['192x192', '512x512']) {
        const icon = manifest.icons.find((candidate) => candidate.sizes === size);
        assert.ok(icon, `an icon of ${size}`);
        const bytes = Buffer.from(await (await fetch(`${app().apiUrl}${icon.src}`)).arrayBuffer());
        assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG', `${icon.src} is a PNG`);
        const side = Number(size.split('x')[0]);
        assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [side, side], `${icon.src} is ${size}`);
      }
    });

    test('once the service worker runs, the app opens offline: a page loads its shell from the cache', { skip }, async () => {
      await page.goto(`${app().apiUrl}/songs`);
      // Functions passed to evaluate run outside the page's CSP.
      const state = await page.evaluate(async () => {
        const worker = (await (navigator as unknown as WorkerNavigator).serviceWorker.ready).active;
        // `ready` comes once a worker is active, which may still be finishing its activation.
        if (worker?.state === 'activating') {
          await new Promise<void>((resolve) => worker.addEventListener('statechange', () => resolve()));
        }
        return worker?.state;
      });
      assert.equal(state, 'activated');
      await page.reload();
      await page.getByRole('banner').waitFor();
      await context.setOffline(true);
      try {
        // A page never opened online: its lazy chunk comes from the worker's install-time cache.
        await page.goto(`${app().apiUrl}/search?q=anything`);
        await page.getByRole('banner').waitFor();
        await page
          .getByRole('heading', { name: /search/i })
          .first()
          .waitFor();
        assert.equal(await page.getByText('This page could not load').count(), 0);
        assert.equal(await page.title(), 'Earshot');
      } finally {
        await context.setOffline(false);
      }
    });
  },
  {},
  { storage: 'one' },
);
