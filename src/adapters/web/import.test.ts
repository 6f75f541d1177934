/**
 * The web import in real Chromium against the real server: exports as people have them (a
 * ListenBrainz zip dropped on the page, a folder, several files, Earshot's own export zip), with the
 * preview, a dry run, per-file results and totals, and the plays stored under the same checkpoints
 * (`getImport` by the content's SHA-256) that `earshot import` keeps, so either resumes the other.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { describeWithApp, scrobbleCount } from '../../app/testing.ts';
import { zipArchive } from '../../core/scrobbling/imports/zip-testing.ts';
import { accountButton, chromiumPath, signOutIfSignedIn, screenshots, waitForText, launchPage } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;

const PASSWORD = 'a long enough password';
const lines = (...listens: object[]) => listens.map((listen) => JSON.stringify(listen)).join('\n');
const listen = (at: string, artist: string, track: string) => ({
  listened_at: Date.parse(at) / 1000,
  track_metadata: { artist_name: artist, track_name: track, release_name: 'Dummy' },
});
const sha256 = (content: string) => createHash('sha256').update(content).digest('hex');

/** A ListenBrainz export: a folder of months per year, and entries that hold no listens. */
const MONTHS = {
  'listens/2023/11.jsonl': lines(listen('2023-11-03T20:00:00Z', 'Portishead', 'Sour Times'), listen('2023-11-04T20:00:00Z', 'Portishead', 'Roads')),
  'listens/2023/12.jsonl': lines(listen('2023-12-24T20:00:00Z', 'Portishead', 'Glory Box')),
  'listens/2024/1.jsonl': lines(listen('2024-01-02T20:00:00Z', 'Portishead', 'Mysterons'), listen('2024-01-03T20:00:00Z', 'Portishead', 'Numb'), {
    listened_at: Date.parse('2024-01-04T20:00:00Z') / 1000,
    track_metadata: { track_name: 'No artist' },
  }),
};
const listenBrainzZip = () =>
  zipArchive([
    { name: 'user.json', content: '{"user_name":"someone"}' },
    ...Object.entries(MONTHS).map(([name, content]) => ({ name, content })),
    { name: 'feedback.jsonl', content: '{"recording_msid":"x","score":1}' },
  ]);

/** Drops files on the page's drop zone, as a person's drag from the desktop arrives: a DataTransfer built in the page from the bytes. */
async function dropFiles(page: Page, files: { name: string; bytes: Buffer }[]): Promise<void> {
  const given = JSON.stringify(files.map(({ name, bytes }) => ({ name, base64: bytes.toString('base64') })));
  // A string, run in the page: the server project's types know no DOM.
  const dataTransfer = await page.evaluateHandle(`(() => {
    const transfer = new DataTransfer();
    for (const { name, base64 } of ${given}) transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name));
    return transfer;
  })()`);
  await page.getByTestId('import-drop').dispatchEvent('drop', { dataTransfer });
}

describeWithApp(
  'web import in Chromium',
  (app) => {
    let browser: Browser;
    let page: Page;
    const errors: string[] = [];
    before(async () => {
      if (skip) return;
      ({ browser, page } = await launchPage(browserPath as string, { errors }));
    });
    after(() => browser?.close());

    async function signIn(handle: string): Promise<{ did: string; token: string }> {
      const account = await app().signup(handle, PASSWORD);
      await page.goto(`${app().apiUrl}/`);
      await signOutIfSignedIn(page);
      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByLabel('Handle or DID').fill(handle);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await accountButton(page).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Import your history' }).waitFor();
      return account;
    }

    const preview = () => page.getByRole('region', { name: 'What will be imported' });
    const results = () => page.locator('ul.imports');

    test('a ListenBrainz zip with a folder per year, dropped on the page: preview, dry run, import, per-file results', { skip }, async () => {
      const { did, token } = await signIn('dropper');
      await dropFiles(page, [{ name: 'listenbrainz.zip', bytes: listenBrainzZip() }]);
      await preview().getByText('3 files to import, in this order:').waitFor();
      const planned = await preview().locator('li').allTextContents();
      assert.deepEqual(
        planned.map((line) => line.split(' ')[0]),
        Object.keys(MONTHS).map((name) => `listenbrainz.zip/${name}`),
      );

      await page.getByLabel('Dry run').check();
      await page.getByRole('button', { name: 'Try the import' }).click();
      await waitForText(page.getByTestId('import-totals'), 'Total: 3 files; would store 5, 0 already there, 1 ignored.');
      await results().getByText('2 records: 2 would be stored').waitFor();
      assert.equal(await scrobbleCount(app(), did), 0);

      await page.getByLabel('Dry run').uncheck();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await waitForText(page.getByTestId('import-totals'), 'Total: 3 files; stored 5, 0 already there, 1 ignored.');
      await results().getByText('3 records: 2 new plays, 0 already there, 1 ignored.').waitFor();
      await results().getByText('Why records were ignored').click();
      await results().getByText('no artist: 1').waitFor();
      await screenshots(page, 'import');
      assert.equal(await scrobbleCount(app(), did), 5);
      // Each month is known by its content's SHA-256, as `earshot import` of the zip or of the unzipped file knows it.
      for (const [name, content] of Object.entries(MONTHS)) {
        const status = await app().query('app.svc.scrobble.getImport', { fingerprint: sha256(content) }, token);
        assert.equal(status.body.complete, true, name);
      }

      // Given again: every entry was imported completely, and nothing is sent.
      await dropFiles(page, [{ name: 'listenbrainz.zip', bytes: listenBrainzZip() }]);
      await preview().getByText('3 files to import, in this order:').waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await waitForText(page.getByTestId('import-totals'), 'Total: 3 files; stored 5, 0 already there, 1 ignored.');
      assert.equal(await results().getByText('This file was imported completely before; nothing was sent.').count(), 3);
      assert.deepEqual(errors, []);
    });

    test('a folder from the folder picker, and several files from the file picker', { skip }, async () => {
      const { did } = await signIn('folders');
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'earshot-web-import-'));
      try {
        const root = path.join(folder, 'lb-export');
        for (const [name, content] of Object.entries(MONTHS)) {
          fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
          fs.writeFileSync(path.join(root, name), content);
        }
        fs.writeFileSync(path.join(root, 'notes.txt'), 'my listening, exported');
        fs.writeFileSync(path.join(root, 'cover.jpg'), 'not even looked at');
        await page.getByLabel('A folder').setInputFiles(root);
        await preview().getByText('3 files to import, in this order:').waitFor();
        await preview().getByText('Skipped 1').click();
        await preview()
          .getByText(/^lb-export\/notes\.txt: cannot tell its format/)
          .waitFor();
        await page.getByRole('button', { name: 'Import', exact: true }).click();
        await waitForText(page.getByTestId('import-totals'), 'Total: 3 files; stored 5, 0 already there, 1 ignored.');
        await results().getByText('lb-export/listens/2024/1.jsonl').waitFor();
        assert.equal(await scrobbleCount(app(), did), 5);
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }

      const spotify = JSON.stringify([
        { ts: '2024-02-01T10:00:00Z', ms_played: 200_000, master_metadata_track_name: 'Angel', master_metadata_album_artist_name: 'Massive Attack' },
      ]);
      const lastfm = 'uts,utc_time,artist,artist_mbid,album,album_mbid,track,track_mbid\n1707000000,"3 Feb 2024, 22:40",Air,,Moon Safari,,Venus,\n';
      await page.getByLabel('Export files').setInputFiles([
        { name: 'Streaming_History_Audio_2024.json', mimeType: 'application/json', buffer: Buffer.from(spotify) },
        { name: 'scrobbles.csv', mimeType: 'text/csv', buffer: Buffer.from(lastfm) },
      ]);
      await preview().getByText('2 files to import, in this order:').waitFor();
      await preview().getByText('· spotify ·').waitFor();
      await preview().getByText('· lastfm ·').waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await waitForText(page.getByTestId('import-totals'), 'Total: 2 files; stored 2, 0 already there, 0 ignored.');
      assert.equal(await scrobbleCount(app(), did), 7);
      assert.deepEqual(errors, []);
    });

    test("Earshot's own export zip imports into another account", { skip }, async () => {
      const source = await app().signup('exporter', PASSWORD);
      const imported = await app().procedure(
        'app.svc.scrobble.importListens',
        {
          fingerprint: sha256('exporter plays'),
          format: 'listenbrainz',
          from: 0,
          records: 2,
          complete: true,
          listens: [
            { artist: 'Air', title: 'La Femme d’Argent', listenedAt: '2024-03-01T20:00:00Z', submitted: {} },
            { artist: 'Air', title: 'Sexy Boy', listenedAt: '2024-04-01T20:00:00Z', submitted: {} },
          ],
        },
        source.token,
      );
      assert.equal(imported.status, 200, JSON.stringify(imported.body));
      const exported = await fetch(`${app().apiUrl}/export`, { headers: { authorization: `Bearer ${source.token}` } });
      assert.equal(exported.status, 200);
      const zip = Buffer.from(await exported.arrayBuffer());

      const { did } = await signIn('newcomer');
      await dropFiles(page, [{ name: 'earshot_exporter.zip', bytes: zip }]);
      await preview().getByText('2 files to import, in this order:').waitFor();
      await preview().getByText('earshot_exporter.zip/listens/2024/3.jsonl').waitFor();
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await waitForText(page.getByTestId('import-totals'), 'Total: 2 files; stored 2, 0 already there, 0 ignored.');
      assert.equal(await scrobbleCount(app(), did), 2);
      assert.deepEqual(errors, []);
    });
  },
  {},
);
