/**
 * Live updates in real Chromium: the home page, opened once, shows a now-playing and a new play
 * submitted through the API afterwards, without reloading and well before its 30 s refresh.
 */
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { describeWithApp, jsonRequest } from '../../app/testing.ts';
import { createClientAccount } from '../lastfm/lastfm-testing.ts';
import { chromiumPath, launchPage } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;
/** Well under the strip's 30 s refresh: only a live event can bring the entry this soon. */
const LIVE_MS = 8_000;

describeWithApp(
  'live updates in Chromium',
  (app) => {
    let browser: Browser;
    let page: Page;
    before(async () => {
      if (skip) return;
      ({ browser, page } = await launchPage(browserPath as string));
    });
    after(() => browser?.close());

    test("the home page's listening now and feed update as plays arrive", { skip }, async () => {
      const listener = await createClientAccount(app(), 'livelistener');
      // The stream is open once its answer's headers are in: wait for that, not for a time.
      const streaming = page.waitForResponse((response) => new URL(response.url()).pathname === '/events' && response.status() === 200);
      await page.goto(app().apiUrl);
      await page.getByRole('heading', { name: 'Recent plays' }).waitFor();
      await streaming;
      const submit = (listenType: 'playing_now' | 'single', title: string) =>
        jsonRequest(`${app().scrobblerUrl}/1/submit-listens`, 'POST', {
          headers: { authorization: `Token ${listener.key}` },
          body: {
            listen_type: listenType,
            payload: [
              {
                ...(listenType === 'single' ? { listened_at: Math.floor(Date.now() / 1000) } : {}),
                track_metadata: { artist_name: 'Live Band', track_name: title },
              },
            ],
          },
        });
      await submit('playing_now', 'Happening Now');
      const strip = page.getByRole('region', { name: 'Listening now' });
      await strip.getByText('Happening Now').waitFor({ timeout: LIVE_MS });
      await submit('single', 'Just Played');
      await page.getByRole('main').getByText('Just Played').first().waitFor({ timeout: LIVE_MS });
    });
  },
  {},
  // What a browser shows as events arrive; storage is only on the way (the app tests cover both backends).
  { storage: 'one' },
);
