/**
 * The web app in real Chromium against the real server: a new user's path from signing up to
 * signing out, at desktop and phone width, with screenshots of each page (artifacts/screenshots).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from 'listenbrainz';
import type { Browser, Page } from 'playwright-core';
import { startFakeMusicstream } from '../../core/providers/musicstream/fake.ts';
import { useProvider } from '../../core/providers/testing.ts';
import { describeWithApp } from '../../app/testing.ts';
import { chromiumPath, screenshots, VIEWPORTS, waitForText, launchPage } from './browser-testing.ts';
import { WEB_DIST } from './static.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;

describeWithApp(
  'web app in Chromium',
  (app) => {
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];
    before(async () => {
      if (skip) return;
      ({ browser, page } = await launchPage(browserPath as string, { errors }));
    });
    after(() => browser?.close());

    test("a new user's whole path: sign up, an API key, plays from a ListenBrainz client, profile, home, Wrapped, songs, search, library, import, tokens, sign out, sign in", {
      skip,
    }, async () => {
      const nav = page.getByRole('navigation', { name: 'Main' });
      await page.goto(app().apiUrl);
      await page.getByRole('heading', { name: 'Recent plays' }).waitFor();
      await page.getByText('No plays yet.').waitFor();
      await screenshots(page, 'home-empty');

      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.getByRole('heading', { name: 'Create your account' }).waitFor();
      await screenshots(page, 'signup');
      await page.getByLabel('Handle').fill('webby');
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Signed in as/ })
        .waitFor();

      // An API key from Settings, shown once with where to paste it.
      await nav.getByRole('link', { name: 'Settings' }).click();
      const keys = page.getByRole('region', { name: 'API keys for scrobblers and players' });
      await keys.getByLabel('Name', { exact: true }).fill('phone');
      await keys.getByRole('button', { name: 'Create API key' }).click();
      const created = page.getByRole('region', { name: 'API key "phone" created' });
      const key = (await created.locator('code').first().textContent())!.trim();
      await created.getByText('Where to paste it').waitFor();
      await screenshots(page, 'settings');
      await created.getByRole('button', { name: 'I have copied it' }).click();

      const client = new Client(key, `${app().scrobblerUrl}/`);
      const now = Math.floor(Date.now() / 1000);
      const recent = ['Teardrop', 'Angel', 'Inertia Creeps'].map((title, i) => ({
        listened_at: now - 600 * (i + 1),
        track_metadata: { artist_name: 'Massive Attack', track_name: title, release_name: 'Mezzanine' },
      }));
      // More than a page of history (50), all over 40 days ago: outside the profile's default period, inside all time.
      const older = Array.from({ length: 57 }, (_, i) => ({
        listened_at: now - 40 * 86_400 - 3600 * i,
        track_metadata: { artist_name: 'Massive Attack', track_name: 'Unfinished Sympathy', release_name: 'Blue Lines' },
      }));
      assert.deepEqual(await client.submitListen({ listen_type: 'import', payload: [...recent, ...older] }), { status: 200 });

      await nav.getByRole('link', { name: 'Profile' }).click();
      await page.getByRole('heading', { name: 'webby' }).waitFor();
      await waitForText(page.getByTestId('scrobbles-count'), '60');
      // Songs are named in the history and in the statistics' top lists alike.
      const history = page.locator('ol.plays');
      const topSongs = page.getByRole('region', { name: 'Top songs' });
      await history.getByRole('link', { name: 'Teardrop' }).waitFor();
      await topSongs.getByRole('link', { name: 'Teardrop' }).waitFor();
      await screenshots(page, 'profile');
      // The history loads its next page as the reader reaches its end.
      assert.equal(await history.locator(':scope > li').count(), 50);
      await history.locator(':scope > li').last().scrollIntoViewIfNeeded();
      await history.locator(':scope > li').nth(59).waitFor();
      // The period picker: all time brings the older plays into the top lists.
      await page.getByLabel('Period').selectOption('all');
      await topSongs.getByRole('link', { name: 'Unfinished Sympathy' }).waitFor();
      await page.getByLabel('Period').selectOption('last30days');
      await topSongs.getByRole('link', { name: 'Unfinished Sympathy' }).waitFor({ state: 'detached' });

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Delete the play of Angel' }).click();
      await history.getByRole('link', { name: 'Angel' }).waitFor({ state: 'detached' });
      await waitForText(page.getByTestId('scrobbles-count'), '59');

      // The plays on the home page's recent feed too.
      await nav.getByRole('link', { name: 'Earshot' }).click();
      await page.getByRole('link', { name: 'Inertia Creeps' }).waitFor();
      await screenshots(page, 'home');

      // Wrapped for the last 30 days in another time zone (a linkable URL), saved as a PNG; a bad zone shows the server's words.
      await nav.getByRole('link', { name: 'Profile' }).click();
      await page.getByRole('link', { name: 'Your Wrapped' }).click();
      await page.getByLabel('Period').selectOption('last30days');
      await page.waitForURL(/period=last30days/);
      await page.getByLabel('Time zone').fill('Asia/Tokyo');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.waitForURL(/period=last30days&tz=Asia%2FTokyo$/);
      await page.getByText('(Asia/Tokyo)').waitFor();
      await waitForText(page.locator('.wrapped-figures dd').first(), '2');
      await screenshots(page, 'wrapped');
      const [image] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save as image' }).click()]);
      assert.equal(image.suggestedFilename(), 'wrapped-webby-last30days.png');
      assert.deepEqual([...fs.readFileSync(await image.path()).subarray(1, 4)], [...Buffer.from('PNG')]);
      await page.getByLabel('Time zone').fill('Mars/Olympus');
      await page.getByRole('button', { name: 'Show' }).click();
      await page.getByRole('alert').filter({ hasText: 'unknown time zone Mars/Olympus' }).waitFor();

      // Songs by RSQL; a bad filter shows the server's message.
      await nav.getByRole('link', { name: 'Songs', exact: true }).click();
      await page.getByLabel('Filter (RSQL)').fill('title==x)');
      await page.getByLabel('Filter (RSQL)').press('Enter');
      await page.getByRole('alert').filter({ hasText: 'position' }).waitFor();
      await screenshots(page, 'songs-bad-filter');
      await page.getByLabel('Filter (RSQL)').fill('title==*Tear*');
      await page.getByLabel('Filter (RSQL)').press('Enter');
      await page.getByRole('link', { name: 'Teardrop' }).first().click();
      await page.getByRole('heading', { name: 'Teardrop' }).waitFor();
      await screenshots(page, 'song');

      // Search across kinds, from the top bar.
      await page.getByRole('searchbox', { name: 'Search artists, albums, songs and people' }).fill('Massive');
      await page.getByRole('searchbox', { name: 'Search artists, albums, songs and people' }).press('Enter');
      await page.getByRole('heading', { name: 'Search', exact: true }).waitFor();
      await page.getByRole('link', { name: 'Massive Attack' }).first().waitFor();
      await screenshots(page, 'search');

      // The library: no music folder on this server, so its empty state says what to do.
      await nav.getByRole('link', { name: 'Library' }).click();
      await page.getByRole('link', { name: 'Artists' }).click();
      await page.getByText('Nothing to play yet').waitFor();
      await screenshots(page, 'library');

      // An import from a file, with its progress and result.
      await nav.getByRole('link', { name: 'Settings' }).click();
      const exported = Array.from({ length: 40 }, (_, i) =>
        JSON.stringify({ listened_at: now - 86_400 * (i + 2), track_metadata: { artist_name: 'Portishead', track_name: `Track ${i}` } }),
      ).join('\n');
      await page.getByLabel('Export files').setInputFiles({ name: 'listens.jsonl', mimeType: 'application/json', buffer: Buffer.from(exported) });
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.getByText(/40 new plays/).waitFor();
      await screenshots(page, 'import');

      // An access token: shown once, listed by its last four, revoked.
      const tokens = page.getByRole('region', { name: 'Access tokens' });
      await tokens.getByLabel('Name').fill('backup script');
      await tokens.getByRole('button', { name: 'Create token' }).click();
      const secret = (await page.getByRole('region', { name: 'Access token "backup script" created' }).locator('code').first().textContent())!.trim();
      await page.getByRole('button', { name: 'I have copied it' }).click();
      await tokens.getByText(`…${secret.slice(-4)}`).waitFor();
      page.once('dialog', (dialog) => void dialog.accept());
      await tokens.getByRole('button', { name: 'Revoke' }).click();
      await tokens.getByText(`…${secret.slice(-4)}`).waitFor({ state: 'detached' });
      assert.equal((await app().query('app.svc.actor.getProfile', { did: 'webby' }, secret)).status, 401);

      const token = await page.evaluate<string>("JSON.parse(localStorage.getItem('earshot.session')).token");
      await page
        .getByRole('banner')
        .getByRole('button', { name: /^Signed in as/ })
        .click();
      await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('link', { name: 'Sign in' }).waitFor();
      // The session ended on the server, not only in the browser.
      assert.equal((await app().request('GET', '/auth/sessions', { token })).status, 401);

      // Signing in again.
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Handle or DID').fill('webby');
      await page.getByLabel('Password').fill('a long enough password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await nav.getByRole('link', { name: 'Profile' }).click();
      await waitForText(page.getByTestId('scrobbles-count'), '99');
      assert.deepEqual(errors, []);
    });

    test("Connected services: Connect goes through the provider's consent and back to this browser, which the answer's cookie binds it to", {
      skip,
    }, async () => {
      const fake = await startFakeMusicstream({ account: 'web-listener' });
      useProvider(app(), 'musicstream', fake.config);
      const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
      try {
        const tab = await context.newPage();
        tab.on('pageerror', (error) => errors.push(error.message));
        await tab.goto(`${app().apiUrl}/signup`);
        await tab.getByLabel('Handle').fill('connector');
        await tab.getByLabel('Password').fill('a long enough password');
        await tab.getByRole('button', { name: 'Create account' }).click();
        await tab
          .getByRole('banner')
          .getByRole('button', { name: /^Signed in as/ })
          .waitFor();
        await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
        const services = tab.getByRole('region', { name: 'Connected services' });
        // The fake consents at once: the click ends at the callback's answer.
        await services.getByRole('listitem').filter({ hasText: 'Streaming service' }).getByRole('button', { name: 'Connect' }).click();
        await tab.waitForURL(/\/providers\/musicstream\/callback\?/);
        assert.match((await tab.textContent('body')) ?? '', /Connected musicstream as web-listener/);
        await tab.goto(`${app().apiUrl}/settings`);
        await services.getByText(/Connected as web-listener since/).waitFor();
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
        useProvider(app(), 'musicstream', undefined);
        await fake.close();
      }
    });

    test('unknown API paths stay JSON; app paths answer the app; assets are gzip, cached, and the first load within 250 KB', { skip }, async () => {
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
      // The first load's JavaScript (the entry and what it preloads), compressed, within 250 KB.
      const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((found) => found[1]!);
      // (fetch would undo the gzip; the served .gz files are the bytes that travel.)
      const bytes = scripts.reduce((sum, file) => sum + fs.statSync(path.join(WEB_DIST, `${file}.gz`)).size, 0);
      assert.ok(bytes <= 250 * 1024, `${bytes} bytes of compressed JavaScript on first load`);
    });
    // What the browser shows, over the API: the storage behind it is covered by the API's own suites.
  },
  {},
  { storage: 'one' },
);
