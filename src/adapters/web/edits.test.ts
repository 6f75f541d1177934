/**
 * Editing from the web app in real Chromium against the real server: an owner corrects a play, an
 * admin fixes and merges artists and undoes the merge from the edit log, a listener (no admin)
 * sees none of the admin's tools and deletes their account. Screenshots: artifacts/screenshots/edit-*.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeWithApp, type TestApp } from '../../app/testing.ts';
import { accountButton, chromiumPath, launch, screenshots, VIEWPORTS, waitForText } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;
const PASSWORD = 'a long enough password';

async function play(app: TestApp, token: string, artist: string, title: string, minutesAgo: number): Promise<void> {
  const timestamp = new Date(Date.now() - minutesAgo * 60_000).toISOString();
  const stored = await app.procedure('app.svc.scrobble.createScrobble', { artist, title, album: 'Mezzanine', timestamp }, token);
  assert.equal(stored.body.status, 'stored', JSON.stringify(stored.body));
}

async function signIn(page: Page, app: TestApp, handle: string): Promise<void> {
  await page.goto(`${app.apiUrl}/signin`);
  await page.getByLabel('Handle or DID').fill(handle);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await accountButton(page).waitFor();
}

describeWithApp('editing from the web app in Chromium', (app) => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  before(async () => {
    if (skip) return;
    // The server's first account is its admin.
    const curator = await app().signup('curator', PASSWORD);
    await play(app(), curator.token, 'Massive Attack', 'Teardrop', 30);
    await play(app(), curator.token, 'Massive Atack', 'Angel', 20);
    await play(app(), curator.token, 'Massive Attack', 'Angle', 10);
    browser = await launch(browserPath as string);
    context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, app(), 'curator');
  });
  after(() => browser?.close());

  test('the owner corrects a play: a problem is explained in words, then the profile and the feed show the corrected play', { skip }, async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    const history = page.locator('ol.plays');
    await page.getByRole('button', { name: 'Correct the play of Angle' }).click();
    const dialog = page.getByRole('dialog', { name: 'Correct the play of Angle' });
    await dialog.getByLabel('Artist').fill(' ');
    await dialog.getByRole('button', { name: 'Save correction' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Give the artist.' }).waitFor();
    await dialog.getByLabel('Artist').fill('Massive Attack');
    await dialog.getByLabel('Title').fill('Angel');
    await screenshots(page, 'edit-correct-play');
    await dialog.getByRole('button', { name: 'Save correction' }).click();
    await dialog.waitFor({ state: 'detached' });
    await history.getByRole('link', { name: 'Angle' }).waitFor({ state: 'detached' });
    await history.getByRole('link', { name: 'Angel' }).first().waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Earshot' }).click();
    const feed = page.locator('ol.plays');
    await feed.locator('li').first().getByRole('link', { name: 'Angel' }).waitFor();
    assert.equal(await feed.getByRole('link', { name: 'Angle' }).count(), 0);
    const [latest] = (await app().query('app.svc.feed.getFeed', { feed: 'earshot:feed:recent', limit: 1 })).body.scrobbles;
    assert.deepEqual([latest.artist, latest.title, typeof latest.editedAt], ['Massive Attack', 'Angel', 'string']);
    assert.deepEqual(errors, []);
  });

  test('an admin merges an artist into another from its page, and undoes it from the edit log', { skip }, async () => {
    await page.locator('ol.plays li').filter({ hasText: 'Massive Atack' }).getByRole('link', { name: 'Angel' }).click();
    await page.getByRole('heading', { name: 'Angel', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Massive Atack', exact: true }).click();
    await page.getByRole('heading', { name: 'Massive Atack', level: 1 }).waitFor();
    const artistUrl = page.url();
    const tools = page.getByRole('region', { name: 'Edit this artist' });

    // A rename to a name another artist has is refused in words: merge them instead.
    await tools.getByRole('button', { name: 'Fix details' }).click();
    const fix = page.getByRole('dialog', { name: 'Fix Massive Atack' });
    await fix.getByLabel('Name').fill('Massive Attack');
    await fix.getByRole('button', { name: 'Save' }).click();
    await fix.getByRole('alert').filter({ hasText: 'already has that name: merge the two instead.' }).waitFor();
    await fix.getByRole('button', { name: 'Cancel' }).click();

    await tools.getByRole('button', { name: 'Merge into another artist' }).click();
    const merge = page.getByRole('dialog', { name: 'Merge Massive Atack into another artist' });
    await merge.getByRole('searchbox', { name: 'Name of the artist to keep' }).fill('Massive');
    await merge.getByRole('button', { name: 'Find' }).click();
    await merge.getByRole('button', { name: 'Merge into Massive Attack' }).waitFor();
    // The search lists the artist itself nowhere: it cannot merge into itself.
    assert.equal(await merge.getByRole('button', { name: 'Merge into Massive Atack' }).count(), 0);
    await screenshots(page, 'edit-merge-picker');
    page.once('dialog', (dialog) => void dialog.accept());
    await merge.getByRole('button', { name: 'Merge into Massive Attack' }).click();
    await tools.getByRole('status').filter({ hasText: 'Merged Massive Atack into Massive Attack.' }).waitFor();
    // The merged-away address now shows the artist kept, with every play.
    await page.getByRole('heading', { name: 'Massive Attack', level: 1 }).waitFor();
    await waitForText(page.locator('.counts dd').first(), '3');
    await screenshots(page, 'edit-merged');

    await tools.getByRole('link', { name: 'Edit log' }).click();
    const log = page.getByRole('region', { name: 'Catalog edits' });
    const entry = log.getByRole('listitem').filter({ hasText: 'Merged artist "Massive Atack" into "Massive Attack".' });
    await entry.waitFor();
    await screenshots(page, 'edit-log');
    await entry.getByRole('button', { name: /^Undo/ }).click();
    await entry.getByText(/undone/).waitFor();
    assert.equal(await entry.getByRole('button', { name: /^Undo/ }).count(), 0);

    await page.goto(artistUrl);
    await page.getByRole('heading', { name: 'Massive Atack', level: 1 }).waitFor();
    await waitForText(page.locator('.counts dd').first(), '1');

    // A fix that is taken: the fields changed are saved at once, and the page shows them.
    await tools.getByRole('button', { name: 'Fix details' }).click();
    await fix.getByLabel('Genres (separated by commas)').fill('trip hop, bristol sound');
    await fix.getByRole('button', { name: 'Save' }).click();
    await tools.getByRole('status').filter({ hasText: "Saved the artist's details." }).waitFor();
    await page.getByText('trip hop, bristol sound').waitFor();
    assert.deepEqual(errors, []);
  });

  test('a listener sees no admin tools, and deletes their account from Settings: the handle typed, the password; then signing in fails', {
    skip,
  }, async () => {
    const listener = await app().signup('listener', PASSWORD);
    await play(app(), listener.token, 'Portishead', 'Roads', 5);
    const own = await browser.newContext({ viewport: VIEWPORTS.desktop });
    try {
      const tab = await own.newPage();
      tab.on('pageerror', (error) => errors.push(error.message));
      await signIn(tab, app(), 'listener');
      await tab.getByRole('link', { name: 'Roads' }).first().click();
      await tab.getByRole('heading', { name: 'Roads', level: 1 }).waitFor();
      await tab.getByRole('link', { name: 'Portishead' }).first().click();
      await tab.getByRole('heading', { name: 'Portishead', level: 1 }).waitFor();
      await tab.getByRole('heading', { name: 'Most played songs' }).waitFor();
      assert.equal(await tab.getByRole('region', { name: 'Edit this artist' }).count(), 0);

      await tab.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
      const section = tab.getByRole('region', { name: 'Delete your account' });
      await section.waitFor();
      assert.equal(await tab.getByRole('region', { name: 'Catalog edits' }).count(), 0);
      const button = section.getByRole('button', { name: 'Delete my account' });
      await section.getByLabel('Type your handle, listener, to confirm').fill('listenr');
      await section.getByLabel('Your password').fill('not the password');
      assert.equal(await button.isDisabled(), true, 'a mistyped handle keeps the button off');
      await section.getByLabel('Type your handle, listener, to confirm').fill('listener');
      await button.click();
      await section.getByRole('alert').filter({ hasText: 'That password is not right: nothing was deleted.' }).waitFor();
      await screenshots(tab, 'edit-delete-account');
      await section.getByLabel('Your password').fill(PASSWORD);
      await button.click();
      await tab.getByRole('heading', { name: 'Recent plays' }).waitFor();
      await tab.getByRole('link', { name: 'Sign in' }).waitFor();
      assert.equal(await tab.evaluate<string | null>("localStorage.getItem('earshot.session')"), null);

      await tab.getByRole('link', { name: 'Sign in' }).click();
      await tab.getByLabel('Handle or DID').fill('listener');
      await tab.getByLabel('Password').fill(PASSWORD);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.getByRole('alert').waitFor();
      assert.equal((await app().query('app.svc.actor.getProfile', { did: 'listener' })).status, 404);
      assert.deepEqual(errors, []);
    } finally {
      await own.close();
    }
  });
});
