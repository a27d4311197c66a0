/**
 * Templates and batches in the console, in a real browser against the local runtime, as a person does it: design
 * two clips under Create with {{first_name}} and {{company|our studio}} in the first and a fixed outro, save the
 * design as a template, choose a bad CSV (its row and column named, nothing made), choose a good one (row 1 shown
 * filled in), send it, watch every row's video complete and play one, find batch.completed verified in the inbox,
 * the outro rendered once. The Templates view at 375 px does not scroll sideways.
 *
 * Screenshots go to a temporary directory; CONSOLE_SCREENSHOTS=1 writes them to docs/ instead.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/local/runtime.ts';
import { desktopPage, launchBrowser, layoutWidth, phonePage, signIn } from '../support/browser.ts';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';

let app: TestRuntime;
let browser: Browser;
let work: string;
let shots: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'vidbot-console-templates-'));
  shots = process.env.CONSOLE_SCREENSHOTS ? join(REPO_ROOT, 'docs') : join(work, 'shots');
  await mkdir(shots, { recursive: true });
  [app, browser] = await Promise.all([startTestRuntime(), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

const api = async (path: string) => (await fetch(`${app.baseUrl}${path}`, { headers: app.authHeaders })).json() as Promise<any>;

describe('console: templates and batches', () => {
  it('saves the design as a template, refuses a bad CSV, previews row 1, makes a video per row and plays one', async () => {
    const { context, page, consoleErrors } = await desktopPage(browser, 1400);
    await signIn(page, app);

    // The design, under Create: a personalised clip and a fixed outro.
    const first = page.getByRole('group', { name: 'Clip 1' });
    await first.getByLabel('Bot', { exact: true }).selectOption('bot_ava');
    await first.getByLabel('Text', { exact: true }).fill('Hello {{first_name}}, welcome to {{company|our studio}}.');
    await first.getByLabel('Clip name').fill('Hi {{first_name}}');
    await page.getByRole('button', { name: 'Add clip' }).click();
    const outro = page.getByRole('group', { name: 'Clip 2' });
    await outro.getByLabel('Bot', { exact: true }).selectOption('bot_otto');
    await outro.getByLabel('Text', { exact: true }).fill('Thanks for watching.');
    await outro.getByLabel('Clip name').fill('Outro');

    await page.getByRole('button', { name: 'Templates', exact: true }).click();
    await expect.poll(() => page.getByText(/^Variables: /).textContent()).toBe('Variables: first_name, company (default “our studio”).');
    await page.getByLabel('Template uid').fill('welcome');
    await page.getByLabel('Name', { exact: true }).fill('Welcome');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByRole('heading', { name: 'Welcome', exact: true }).waitFor();
    expect((await api('/v1/templates/welcome')).variables).toEqual([
      { name: 'first_name', required: true },
      { name: 'company', required: false, default: 'our studio' },
    ]);
    // The header to fill in, as a file.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'download the header' }).click();
    expect(await readFile((await (await download).path())!, 'utf8')).toBe('first_name,company\n');

    // A bad CSV: its row and column are named, nothing is made, the send button waits.
    const bad = join(work, 'bad.csv');
    await writeFile(bad, 'first_name,company\nAda,Acme\n,Initech\n');
    await page.getByLabel('Rows (CSV)').setInputFiles(bad);
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent(), { timeout: 10_000 }).toContain('Row 2: first_name is required (CSV line 3)');
    expect(await alert.textContent()).toContain('Nothing was made');
    expect(await page.getByRole('button', { name: 'Choose a CSV to check first' }).isDisabled()).toBe(true);

    // A good one: row 1 filled in before anything is sent.
    const good = join(work, 'good.csv');
    await writeFile(good, 'first_name,company\nAda,Acme\nGrace,\n"Alan, Jr.",Bletchley\n');
    await page.getByLabel('Rows (CSV)').setInputFiles(good);
    const preview = page.locator('.preview');
    await expect.poll(() => preview.textContent(), { timeout: 10_000 }).toContain('3 rows, every one valid. Row 1 as it will be made:');
    expect(await preview.textContent()).toContain('Hello Ada, welcome to Acme.');
    expect(await preview.textContent()).toContain('Hi Ada');
    expect((await api('/v1/video?limit=100')).videos).toEqual([]);
    await page.screenshot({ path: join(shots, 'console-templates.png') });

    // Sent: the batch opens and follows its rows until every one is done.
    await page.getByRole('button', { name: 'Make 3 videos' }).click();
    await page.getByRole('heading', { name: 'Rows' }).waitFor();
    const badge = page.locator('#batch-title + .badge');
    await expect.poll(() => badge.textContent(), { timeout: 180_000, interval: 1000 }).toBe('completed');
    await expect.poll(() => page.locator('.row-card video').count(), { timeout: 10_000 }).toBe(3);
    const cards = await page.locator('.row-card').allTextContents();
    expect(cards[0]).toContain('Row 1: Hi Ada');
    expect(cards[1]).toContain('Hello Grace, welcome to our studio.');
    expect(cards[2]).toContain('Row 3: Hi Alan, Jr.');
    // Row 1's video plays in the browser, from its poster.
    const video = page.getByLabel('Video of row 1');
    const played = await video.evaluate(async (element) => {
      const media = element as unknown as { play(): Promise<void>; currentTime: number; videoWidth: number; poster: string };
      await media.play();
      await new Promise((resolve) => setTimeout(resolve, 1200));
      return { time: media.currentTime, width: media.videoWidth, poster: media.poster };
    });
    expect(played.time).toBeGreaterThan(0.5);
    expect(played.width).toBe(1280);
    expect(played.poster).toMatch(/^http/);
    await video.evaluate((element) => (element as unknown as { pause(): void }).pause());
    await page.screenshot({ path: join(shots, 'console-batch.png'), fullPage: true });

    // The outro was rendered once for the three videos; batch.completed reached the inbox, verified.
    const { batches } = await api('/v1/batches');
    expect(batches).toHaveLength(1);
    const { videos } = await api(`/v1/batches/${batches[0].batch_id}`);
    const outros = await Promise.all(videos.map(async (row: any) => (await api(`/v1/video/${row.video_id}`)).clips[1].cached));
    expect(outros.filter((cached) => !cached)).toHaveLength(1);
    await expect
      .poll(async () => (await api('/v1/inbox?limit=50')).events.filter((e: any) => e.type === 'batch.completed' && e.signature_verified).length, {
        timeout: 20_000,
      })
      .toBe(1);
    // The bad CSV's 400 is the one error the browser logs (a refused request is logged as a failed resource).
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    await context.close();

    // On a phone the view stacks: the batch and its rows, no sideways scrolling.
    const phone = await phonePage(browser);
    await signIn(phone, app);
    await phone.getByRole('button', { name: 'Templates', exact: true }).click();
    await phone.getByRole('button', { name: /^Welcome completed/ }).click();
    await phone.getByRole('heading', { name: 'Rows' }).waitFor();
    await expect.poll(() => phone.locator('.row-card video').count(), { timeout: 10_000 }).toBe(3);
    expect(await layoutWidth(phone), 'the batch at 375 px').toBeLessThanOrEqual(375);
    await phone.screenshot({ path: join(shots, 'console-batch-phone.png'), fullPage: true });
    await phone.getByRole('button', { name: /^Welcome welcome/ }).click();
    await phone.getByRole('heading', { name: 'Send a batch' }).waitFor();
    expect(await layoutWidth(phone), 'the template at 375 px').toBeLessThanOrEqual(375);
    await phone.context().close();
  }, 300_000);
});
