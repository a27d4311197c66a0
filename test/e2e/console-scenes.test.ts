/**
 * The scene's controls in the console, in a real browser against the local runtime: a clip at `large` size with a
 * lower third, a logo (served by a test server), a theme font and colour, and the `calm` music bed. The curl preview
 * shows each field; an overlay whose end comes before its start is refused by the API and the message shows under
 * that field; once fixed the video completes and the API has the scene as asked.
 *
 * Screenshots go to a temporary directory; CONSOLE_SCREENSHOTS=1 writes docs/console-scene.png instead.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/local/runtime.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { desktopPage, launchBrowser, signIn } from '../support/browser.ts';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';

let app: TestRuntime;
let browser: Browser;
let work: string;
let shots: string;
let files: Awaited<ReturnType<typeof startFileServer>>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'vidbot-console-scenes-'));
  shots = process.env.CONSOLE_SCREENSHOTS ? join(REPO_ROOT, 'docs') : join(work, 'shots');
  await mkdir(shots, { recursive: true });
  const logo = join(work, 'logo.png');
  await sharp({ create: { width: 200, height: 100, channels: 4, background: { r: 255, g: 0, b: 255, alpha: 1 } } })
    .png()
    .toFile(logo);
  files = await startFileServer({ '/logo.png': logo });
  [app, browser] = await Promise.all([startTestRuntime(), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await files?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('console: a scene', () => {
  it('sends size, overlays, logo, theme and music as the curl shows, names a bad overlay time, and the video completes', async () => {
    const { context, page, consoleErrors } = await desktopPage(browser, 2400);
    await signIn(page, app);
    const clip = page.getByRole('group', { name: 'Clip 1' });
    await clip.getByLabel('Bot', { exact: true }).selectOption('bot_ava');
    await clip.getByLabel('Text', { exact: true }).fill('Welcome to the show. Today we look at three new things.');
    await clip.getByLabel('Presenter size').selectOption('large');
    await clip.getByRole('button', { name: 'Add a text to clip 1' }).click();
    const lower = page.getByRole('group', { name: 'Clip 1, Text 1' });
    await lower.getByLabel('Text', { exact: true }).fill('Ana Pérez · Host');
    await lower.getByLabel('Style').selectOption('lower_third');
    await lower.getByLabel('From (s)').fill('2');
    await lower.getByLabel('To (s)').fill('0.5');
    await page.getByLabel('Logo URL').fill(`${files.base}/logo.png`);
    await page.getByLabel('Logo position').selectOption('top-left');
    await page.getByLabel('Font').selectOption('montserrat');
    await page.getByLabel('Music', { exact: true }).selectOption('preset:calm');

    const curl = await page.getByLabel('curl command').innerText();
    expect(curl).toContain('"bot_size": "large"');
    expect(curl).toContain('"style": "lower_third"');
    expect(curl).toContain('"start": 2');
    expect(curl).toContain(`"url": "${files.base}/logo.png"`);
    expect(curl).toContain('"position": "top-left"');
    expect(curl).toContain('"font": "montserrat"');
    expect(curl).toContain('"preset": "calm"');

    // The API refuses the reversed window; its message shows under "To (s)".
    await page.getByRole('button', { name: 'Create video' }).click();
    const end = lower.getByLabel('To (s)');
    await expect.poll(() => end.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    expect(await lower.locator('.field-error').innerText()).toMatch(/after/);
    await page.screenshot({ path: join(shots, 'console-scene.png') });

    await end.fill('4');
    await page.getByRole('button', { name: 'Create video' }).click();
    const detail = page.locator('article[aria-labelledby="video-title"]');
    await detail.waitFor();
    const videoId = (await detail.getByRole('heading', { level: 3 }).innerText()).trim();
    await expect.poll(() => detail.locator('header .badge').innerText(), { timeout: 120_000, interval: 250 }).toBe('completed');

    const video = (await (await fetch(`${app.baseUrl}/v1/video/${videoId}`, { headers: app.authHeaders })).json()) as any;
    expect(video.logo).toMatchObject({ url: `${files.base}/logo.png`, position: 'top-left' });
    expect(video.music).toEqual({ preset: 'calm', volume: 0.25 });
    expect(video.theme).toMatchObject({ font: 'montserrat' });
    expect(video.clips[0].overlays).toEqual([
      expect.objectContaining({ type: 'text', style: 'lower_third', text: 'Ana Pérez · Host', start: 2, end: 4 }),
    ]);
    // The one 400 asked for above is the browser's only complaint.
    const unexpected = consoleErrors.filter((e) => !/status of 400/.test(e));
    expect(unexpected, unexpected.join('\n')).toEqual([]);
    await context.close();
  }, 240_000);
});
