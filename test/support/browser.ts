/**
 * The console's browser tests' browser: headless Chromium from @sparticuz/chromium, driven by playwright-core,
 * under the browser's real security rules, and the steps every test starts with (a desktop page, signing in).
 */
import sparticuz from '@sparticuz/chromium';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { TestRuntime } from './harness.ts';

/**
 * sparticuz's flags, less the two that loosen web security (the page must work under the browser's real rules),
 * plus those that keep a browser with no network from reaching out on its own.
 */
const CHROMIUM_ARGS = [
  // --single-process is for Lambda's sandbox; here it would end the browser with its first context.
  ...sparticuz.args.filter((arg) => !['--disable-web-security', '--allow-running-insecure-content', '--single-process'].includes(arg)),
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--no-first-run',
  '--metrics-recording-only',
  '--autoplay-policy=no-user-gesture-required',
];

/** The browser; `args` adds flags (a fake camera and microphone: `--use-file-for-fake-video-capture=…`). */
export const launchBrowser = async (args: string[] = []): Promise<Browser> =>
  chromium.launch({ executablePath: await sparticuz.executablePath(), args: [...CHROMIUM_ARGS, ...args], headless: true });

/** Opens the console and signs in with the runtime's key, by the keyboard. */
export async function signIn(page: Page, app: Pick<TestRuntime, 'baseUrl' | 'apiKey'>) {
  await page.goto(`${app.baseUrl}/`);
  await page.getByLabel('API key').fill(app.apiKey);
  await page.getByLabel('API key').press('Enter'); // the keyboard signs in
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
}

/** A desktop-sized page, with the errors its console and scripts report collected. */
export async function desktopPage(browser: Browser, height = 1500) {
  const context = await browser.newContext({ viewport: { width: 1280, height } });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  return { context, page, consoleErrors };
}

/** A 375 px phone. */
export const phonePage = async (browser: Browser) =>
  (await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })).newPage();

/** The page's width as laid out: more than the viewport means sideways scrolling. */
export const layoutWidth = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
