/**
 * Covers in real Chromium: a song without a picture shows its album's cover, and nothing shows an
 * empty grey square: every picture slot on the search and artist pages is a loaded image or a
 * placeholder with initials on a colour (components/Artwork.tsx).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { describeWithApp } from '../../app/testing.ts';
import { testPng } from '../../core/library/test-music.ts';
import { listenerWithHistory } from '../../core/scrobbling/testing.ts';
import { chromiumPath, screenshots, launchPage } from './browser-testing.ts';

const browserPath = chromiumPath();
const skip = typeof browserPath === 'string' ? false : browserPath.missing;

interface Slot {
  kind: 'image' | 'placeholder' | 'empty';
  src?: string;
  label?: string;
}

/** What the test touches of page elements (the server's types have no DOM). */
type SlotElement = {
  tagName: string;
  textContent: string | null;
  naturalWidth?: number;
  getAttribute(name: string): string | null;
  style: { backgroundColor: string };
  decode?(): Promise<void>;
};

/**
 * Every picture slot (`.art`) in the page's main content, as what it shows, once its images are
 * decoded. (Functions passed to evaluate run outside the page's CSP; waitForFunction would not.)
 */
async function settledSlots(page: Page): Promise<Slot[]> {
  // Songs', albums' and artists' pictures; the listeners' avatars of a page's statistics (loaded after it) are not covers.
  const slots = page.locator('main .art:not(.entity-stats *)');
  await slots.evaluateAll((elements: SlotElement[]) => Promise.all(elements.map((element) => element.decode?.().catch(() => undefined))));
  return slots.evaluateAll((elements: SlotElement[]) =>
    elements.map((element): Slot => {
      if (element.tagName === 'IMG') return (element.naturalWidth ?? 0) > 0 ? { kind: 'image', src: element.getAttribute('src')! } : { kind: 'empty' };
      const label = (element.textContent ?? '').trim();
      return label !== '' && element.style.backgroundColor !== '' ? { kind: 'placeholder', label } : { kind: 'empty' };
    }),
  );
}

describeWithApp(
  'covers in Chromium',
  (app) => {
    let browser: Browser;
    let page: Page;
    let cover: string;
    let artistId: string;
    before(async () => {
      if (skip) return;
      await listenerWithHistory(app(), 'coverfan', [
        { at: '2024-03-01T10:00:00Z', artist: 'Björk', title: 'Jóga', album: 'Homogenic' },
        { at: '2024-03-01T10:05:00Z', artist: 'Björk', title: 'Jóga', album: 'Homogenic' },
        { at: '2024-03-01T10:10:00Z', artist: 'Björk', title: 'Army of Me', album: 'Post' },
      ]);
      // Homogenic has a kept cover (as enrichment keeps one), Post none; no song has its own.
      const db = app().ctx.db;
      const homogenic = await db.selectFrom('albums').select(['id', 'artist_id']).where('title', '=', 'Homogenic').executeTakeFirstOrThrow();
      artistId = homogenic.artist_id!;
      cover = `${app().apiUrl}/covers/${homogenic.id}`;
      await db
        .insertInto('album_covers')
        .values({
          album_id: homogenic.id,
          content_type: 'image/png',
          data: Buffer.from(testPng('Homogenic')),
          release_mbid: '00000000-0000-0000-0000-000000000000',
        })
        .execute();
      await db.updateTable('albums').set({ album_art: cover }).where('id', '=', homogenic.id).execute();
      ({ browser, page } = await launchPage(browserPath as string));
    });
    after(() => browser?.close());

    test('search: the album cover on its album and its song, placeholders with initials for the rest', { skip }, async () => {
      await page.goto(`${app().apiUrl}/search?q=bjork`);
      await page.getByRole('link', { name: 'Army of Me' }).waitFor();
      const slots = await settledSlots(page);
      assert.deepEqual(slots, [
        { kind: 'placeholder', label: 'BJ' },
        { kind: 'image', src: cover },
        { kind: 'placeholder', label: 'PO' },
        { kind: 'image', src: cover },
        { kind: 'placeholder', label: 'PO' },
      ]);
      await screenshots(page, 'covers-search');
    });

    test('artist page: no empty picture slot', { skip }, async () => {
      await page.goto(`${app().apiUrl}/artists/${artistId}`);
      await page.getByRole('heading', { name: 'Most played albums' }).waitFor();
      const slots = await settledSlots(page);
      assert.deepEqual(
        slots.map((slot) => slot.kind),
        ['placeholder', 'image', 'placeholder', 'image', 'placeholder'],
      );
      await screenshots(page, 'covers-artist');
    });
  },
  {},
  // What the browser shows of the covers the API gives; the rule itself is tested on both backends (covers-and-plays.test.ts).
  { storage: 'one' },
);
