/**
 * The web app in real Chromium against the real server: a new user's path from signing up to
 * signing out, at desktop and phone width, with screenshots of each page (artifacts/screenshots).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { Client } from 'listenbrainz';
import type { Browser, Page } from 'playwright-core';
import { describeWithApp } from '../testing.ts';
import { chromiumPath, launch, screenshots, VIEWPORTS } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;

describeWithApp('web app in Chromium', (app) => {
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  before(async () => {
    if (skip) return;
    browser = await launch(browserPath as string);
    page = await browser.newPage({ viewport: VIEWPORTS.desktop });
    page.on('pageerror', (error) => errors.push(error.message));
  });
  after(() => browser?.close());

  test('a new user signs up, sends plays with a ListenBrainz client, sees them, deletes one, opens Wrapped in another time zone, and signs out', { skip }, async () => {
    await page.goto(app().apiUrl);
    await page.getByRole('heading', { name: 'Recent plays' }).waitFor();
    await page.getByText('No plays yet.').waitFor();
    await screenshots(page, 'home-empty');

    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByLabel('Handle').fill('webby');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    // A scrobbler sends plays with an API key (Settings would make it; here the API does).
    // The page's own session (the server code has no DOM types, so the expression is a string).
    const token = await page.evaluate<string>("JSON.parse(localStorage.getItem('earshot.session')).token");
    const key = await app().procedure('app.svc.apikey.createApikey', { name: 'phone' }, token);
    const client = new Client(key.body.key, `${app().scrobblerUrl}/`);
    const now = Math.floor(Date.now() / 1000);
    const listens = ['Teardrop', 'Angel', 'Inertia Creeps'].map((title, i) => ({ listened_at: now - 600 * (i + 1), track_metadata: { artist_name: 'Massive Attack', track_name: title, release_name: 'Mezzanine' } }));
    assert.deepEqual(await client.submitListen({ listen_type: 'import', payload: listens }), { status: 200 });

    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'webby' }).waitFor();
    assert.equal(await page.getByTestId('scrobbles-count').textContent(), '3');
    // Songs are named in the history and in the statistics' top lists alike.
    const history = page.locator('ol.plays');
    await history.getByRole('link', { name: 'Teardrop' }).waitFor();
    await page.getByRole('region', { name: 'Top songs' }).getByRole('link', { name: 'Teardrop' }).waitFor();
    await screenshots(page, 'profile');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete the play of Angel' }).click();
    await history.getByRole('link', { name: 'Angel' }).waitFor({ state: 'detached' });
    assert.equal(await page.getByTestId('scrobbles-count').textContent(), '2');

    // Wrapped for the last 30 days in another time zone (a linkable URL), saved as a PNG; a bad zone shows the server's words.
    await page.getByRole('link', { name: 'Your Wrapped' }).click();
    await page.getByLabel('Period').selectOption('last30days');
    await page.waitForURL(/period=last30days/);
    await page.getByLabel('Time zone').fill('Asia/Tokyo');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.waitForURL(/period=last30days&tz=Asia%2FTokyo$/);
    await page.getByText('(Asia/Tokyo)').waitFor();
    assert.equal(await page.locator('.wrapped-figures dd').first().textContent(), '2');
    await screenshots(page, 'wrapped');
    const [image] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save as image' }).click()]);
    assert.equal(image.suggestedFilename(), 'wrapped-webby-last30days.png');
    assert.deepEqual([...fs.readFileSync(await image.path()).subarray(1, 4)], [...Buffer.from('PNG')]);
    await page.getByLabel('Time zone').fill('Mars/Olympus');
    await page.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('alert').filter({ hasText: 'unknown time zone Mars/Olympus' }).waitFor();

    await page.getByRole('link', { name: 'Earshot' }).click();
    await page.getByRole('link', { name: 'Inertia Creeps' }).waitFor();
    await screenshots(page, 'home');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    // The session ended on the server, not only in the browser.
    assert.equal((await app().request('GET', '/auth/sessions', { token })).status, 401);
    assert.deepEqual(errors, []);
  });

  test('unknown API paths stay JSON; app paths answer the app; assets are gzip and cached', { skip }, async () => {
    const api = await fetch(`${app().apiUrl}/xrpc/app.svc.nope`);
    assert.equal(api.status, 404);
    assert.equal(((await api.json()) as { error: string }).error, 'MethodNotImplemented');
    const deep = await fetch(`${app().apiUrl}/u/someone/wrapped`);
    assert.equal(deep.status, 200);
    assert.match(deep.headers.get('content-type') ?? '', /text\/html/);
    const html = await deep.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const asset = await fetch(`${app().apiUrl}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(asset.headers.get('content-encoding'), 'gzip');
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
  });
});
