/**
 * The console's end-to-end test (test/e2e/console.test.ts): the local runtime, a browser and a file server with a
 * sample background, started once for the file (screenshots to a temporary directory, or to docs/ with
 * CONSOLE_SCREENSHOTS=1), and the steps a person takes on the page: fill a clip, drop a file, read a bot's badge.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { REPO_ROOT } from '#infra/local/runtime.ts';
import { makeSampleBackground } from '#infra/scripts/make-sample-background.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
import { launchBrowser } from './browser.ts';
import { startTestRuntime, type TestRuntime } from './harness.ts';

// A global of the page, for the function page.evaluateHandle runs there (the project's types are Node's, not the DOM's).
declare const window: any;

export let app: TestRuntime;
export let browser: Browser;
export let files: Awaited<ReturnType<typeof startFileServer>>;
export let work: string;
export let shots: string;

/** Starts the runtime, the browser and the file server before the calling file's tests; stops them after. */
export function useConsoleRuntime() {
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'vidbot-console-'));
    shots = process.env.CONSOLE_SCREENSHOTS ? join(REPO_ROOT, 'docs') : join(work, 'shots');
    await mkdir(shots, { recursive: true });
    const [runtime, background, launched] = await Promise.all([
      startTestRuntime(),
      makeSampleBackground(join(work, 'background.mp4'), { seconds: 2 }),
      launchBrowser(),
    ]);
    app = runtime;
    browser = launched;
    files = await startFileServer({ '/background.mp4': background });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await files?.stop();
    await app?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });
}

/** One clip of the interface's sample, entered through the clip's own controls. */
export async function fillClip(
  clip: Locator,
  values: {
    bot: string;
    text: string;
    position: string;
    removeBackground: boolean;
    background: string;
    volume: string;
    entry: string;
    exit: string;
    keep: boolean;
    name: string;
  },
) {
  await clip.getByLabel('Bot', { exact: true }).selectOption(values.bot);
  await clip.getByLabel('Text', { exact: true }).fill(values.text);
  await clip.getByRole('radio', { name: values.position }).click(); // a person clicks the cell, even the bot's default
  await clip.getByLabel("Remove the bot's own background").setChecked(values.removeBackground);
  await clip.getByLabel('Background URL').fill(values.background);
  await clip.getByLabel('Background volume').fill(values.volume);
  await clip.getByLabel('Entry transition').selectOption(values.entry);
  await clip.getByLabel('Exit transition').selectOption(values.exit);
  await clip.getByLabel('Keep for reuse').setChecked(values.keep);
  await clip.getByLabel('Clip name').fill(values.name);
}

/** Drops a file on the drop zone that holds the control labelled `label` (within `scope`), as a drag from the desktop would. */
export async function dropFile(page: Page, label: string, path: string, name: string, type: string, scope: Page | Locator = page) {
  const base64 = (await readFile(path)).toString('base64');
  const dataTransfer = await page.evaluateHandle(
    ({ base64, name, type }) => {
      const bytes = Uint8Array.from(window.atob(base64), (c: string) => c.charCodeAt(0));
      const transfer = new window.DataTransfer();
      transfer.items.add(new window.File([bytes], name, { type }));
      return transfer;
    },
    { base64, name, type },
  );
  await scope.locator('.drop', { has: page.getByLabel(label, { exact: true }) }).dispatchEvent('drop', { dataTransfer });
}

/** The status badge of one bot's card in the gallery. */
export const botBadge = (page: Page, name: string) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name, exact: true }) })
    .getByRole('status');
