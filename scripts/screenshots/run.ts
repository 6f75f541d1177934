/**
 * `npm run screenshots`: the documentation's pictures of the web app, taken anew. Starts Earshot on
 * a fresh embedded database with a made-up demo (a scanned music folder with covers, four
 * listeners and a year of plays), signs in as one of them in Debian's Chromium and saves each
 * page at desktop and phone width, light and dark, as docs/screenshots/<page>-<width>-<scheme>.png.
 * `--out DIR` writes elsewhere; `--only NAME,…` takes some pages; `--full` takes whole pages.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { startTestApp } from '../../src/app/testing.ts';
import { chromiumPath, launch, VIEWPORTS } from '../../src/adapters/web/browser-testing.ts';
import { testBackends } from '../../src/toolkit/db/testing.ts';
import { seedDemo } from './demo.ts';

const { values } = parseArgs({
  options: { out: { type: 'string', default: 'docs/screenshots' }, only: { type: 'string' }, full: { type: 'boolean', default: false } },
});
const only = values.only ? new Set(values.only.split(',')) : null;

const browserPath = chromiumPath();
if (typeof browserPath !== 'string') throw new Error(browserPath.missing);

const musicDir = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-demo-music-'));
// The scan writes cover addresses under the public URL, so the server listens where that URL says.
const port = await freePort();
const app = await startTestApp(testBackends()[0]!, { musicDir, port, publicUrl: `http://127.0.0.1:${port}` });
const browser = await launch(browserPath);
try {
  const demo = await seedDemo(app, musicDir);
  const page = await browser.newPage({ viewport: VIEWPORTS.desktop });
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  await page.goto(`${app.apiUrl}/signin`);
  await page.getByLabel('Handle').fill(demo.handle);
  await page.getByLabel('Password').fill(demo.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Signed in as/ })
    .waitFor();

  // Something playing, so the player bar is in the pictures.
  await page.goto(`${app.apiUrl}/library/albums/${demo.playingAlbum}`);
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForTimeout(2500);
  await page.getByRole('button', { name: 'Pause' }).first().click();

  const shots: [name: string, url: string][] = [
    ['home', '/'],
    ['profile', `/u/${demo.handle}`],
    ['wrapped', `/u/${demo.handle}/wrapped`],
    ['artist', `/artists/${demo.artist}`],
    ['album', `/albums/${demo.album}`],
    ['library', '/library'],
    ['songs', '/songs?sort=-playCount'],
    ['search', '/search?q=night'],
    ['settings', '/settings'],
  ];
  fs.mkdirSync(values.out, { recursive: true });
  for (const [name, url] of shots) {
    if (only && !only.has(name)) continue;
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [width, size] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(size);
        // Moved to within the app, as a link would, so the music goes on.
        await page.evaluate(`history.pushState(null, '', ${JSON.stringify(url)}); dispatchEvent(new PopStateEvent('popstate'))`);
        await settle(page);
        const file = path.join(values.out, `${name}-${width}-${scheme}.png`);
        // The window as a user sees it, the player bar at its foot (--full: the whole page, for reviewing a design).
        await page.screenshot({ path: file, animations: 'disabled', fullPage: values.full });
        console.log(file);
      }
    }
  }
} finally {
  await browser.close();
  await app.close();
  fs.rmSync(musicDir, { recursive: true, force: true });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/** Waits for the page's requests and images to finish, so no picture shows a loading state. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  // Lazy images below the fold would never load for a full-page picture: load them all, for at most 5 s.
  await page.evaluate(`Promise.race([
    new Promise((done) => setTimeout(done, 5000)),
    Promise.all([...document.images].map((image) => {
      image.loading = 'eager';
      return image.complete || new Promise((done) => { image.onload = image.onerror = done; });
    })),
  ])`);
  await page.waitForTimeout(300);
}
