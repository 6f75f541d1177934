/**
 * Real Chromium for the web app's end-to-end tests: Debian's `chromium` driven by playwright-core
 * (no browser download). Without a browser the tests are skipped on a developer machine and fail
 * under CI=true, where .ci/run installs it. Screenshots go to artifacts/screenshots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import type { Database } from '../../toolkit/db/index.ts';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((candidate): candidate is string => Boolean(candidate));

export const SCREENSHOTS = path.resolve('artifacts/screenshots');

/** The browser's executable, or why there is none (a skip reason; under CI=true, a failure). */
export function chromiumPath(): string | { missing: string } {
  const found = CANDIDATES.find((candidate) => fs.existsSync(candidate));
  if (found) return found;
  const missing = `no Chromium at ${CANDIDATES.join(' or ')} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
  if (process.env.CI === 'true') throw new Error(`${missing}: CI needs it for the web app's tests`);
  return { missing };
}

export async function launch(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}

export const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 360, height: 780 } } as const;

export interface PageOptions {
  /** The page's own settings; the desktop viewport unless `viewport` says otherwise. */
  page?: Parameters<Browser['newPage']>[0];
  /** Where the page's uncaught errors go (and its console errors, with `consoleErrors`), for a test to assert there were none. */
  errors?: string[];
  consoleErrors?: boolean;
}

/** Chromium with one page open, as most browser suites start. */
export async function launchPage(executablePath: string, options: PageOptions = {}): Promise<{ browser: Browser; page: Page }> {
  const browser = await launch(executablePath);
  const page = await browser.newPage({ viewport: VIEWPORTS.desktop, ...options.page });
  const { errors } = options;
  if (errors) {
    page.on('pageerror', (error) => errors.push(error.message));
    if (options.consoleErrors) page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  }
  return { browser, page };
}

/** Saves the page at desktop and phone width as artifacts/screenshots/<name>-<width>.png, failing when it overflows sideways. */
export async function screenshots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
    // Nothing may make a phone scroll sideways.
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    if (width > size.width) throw new Error(`${name} is ${width} px wide at ${label} width (${size.width} px): something overflows`);
  }
  if (original) await page.setViewportSize(original);
}

/**
 * Waits until the element's whole text is `expected`: a page renders what it has (a cached or
 * empty count) before its query answers, so reading the text at once races the server.
 */
export async function waitForText(locator: Locator, expected: string): Promise<void> {
  const exact = new RegExp(`^\\s*${expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
  try {
    await locator.filter({ hasText: exact }).waitFor({ timeout: 10_000 });
  } catch {
    throw new Error(`expected ${locator} to show "${expected}", it shows "${await locator.textContent()}"`);
  }
}

/** The header's account button (web/src/components/UserMenu.tsx), there once someone is signed in. */
export function accountButton(page: Page): Locator {
  return page.getByRole('banner').getByRole('button', { name: /^Signed in as/ });
}

/** Signs out through the account menu, if someone is signed in. */
export async function signOutIfSignedIn(page: Page): Promise<void> {
  const account = accountButton(page);
  if (!(await account.isVisible())) return;
  await account.click();
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
}

/** Reads until `done` holds of what was read, polled from the test (what the server stores after the page acts); fails after `timeoutMs`. */
export async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** How long each of a user's plays was listened to, once every one says (the player sends it as the play ends). */
export async function playedTimesOnceSent(db: Database, did: string): Promise<number[]> {
  const times = await until(
    'the played times',
    async () =>
      (await db.selectFrom('scrobbles as s').innerJoin('users as u', 'u.id', 's.user_id').select('s.played_ms').where('u.did', '=', did).execute()).map(
        (row) => row.played_ms,
      ),
    (played) => played.every((time) => time !== null),
  );
  return times as number[];
}
