/**
 * Recording in the console, in Chromium with a fake camera and microphone: the camera plays a few seconds of the
 * repo's real test portrait (made here as Y4M with ffmpeg), the microphone a real LibriVox sentence from Debian's
 * pocketsphinx-testdata. A dropped 3-s film without the consent tick is refused by both fields with nothing sent;
 * then a video bot is recorded with the webcam (the script, the listening pause's cue, the preview played) and sent:
 * uploaded with the presigned PUT, made by PUT /v1/bot/{uid} with video_upload, and shown preparing, then failed
 * with the code's "what to do" (a still portrait never shows its lips closed: mouth_never_closed); the bot prepares
 * while the other cases run, and its failure is checked last. A clip speaks a voice recorded
 * with the microphone (the level meter moving, played back before sending) with its transcript; the video
 * completes and links its words file with the word count. A dropped audio file is a player too. Both forms are
 * photographed at 1280 and 375 px (CONSOLE_SCREENSHOTS=1 writes them to docs/). One runtime, one browser and one
 * signed-in page serve every case, in order.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFfmpeg } from '#functions/media/media.ts';
import { REPO_ROOT } from '#infra/local/runtime.ts';
import { launchBrowser, layoutWidth, signIn } from '../support/browser.ts';
import { dropFile } from '../support/console-e2e.ts';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';
import { librivoxInstalled, librivoxSentences } from '../support/librivox.ts';

// Globals of the page, for the functions page.evaluate runs there (the project's types are Node's, not the DOM's).
declare const document: any;

const SENTENCE = librivoxSentences().find((s) => s.path.endsWith('-0880.wav'));

let app: TestRuntime;
let browser: Browser;
let work: string;
let shots: string;
let shortFilm: string;
/** The one page every case uses, signed in once, and the errors its console and scripts report. */
let context: BrowserContext;
let page: Page;
const consoleErrors: string[] = [];

/**
 * The camera: the test portrait, still, for 2 s (Chromium loops it), at 15 fps. The microphone: the sentence, then 4 s
 * of silence. And a 3-s film of the portrait, too short to be a bot.
 */
async function fakeDevices(root: string) {
  const camera = join(root, 'camera.y4m');
  const microphone = join(root, 'microphone.wav');
  const short = join(root, 'short.mp4');
  await runFfmpeg(
    [
      '-y',
      '-loop',
      '1',
      '-i',
      join(REPO_ROOT, 'test/fixtures/prepare/portrait.jpg'),
      '-vf',
      'scale=480:608',
      '-r',
      '15',
      '-t',
      '2',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'yuv4mpegpipe',
      camera,
    ],
    { budgetSeconds: 60 },
  );
  await runFfmpeg(['-y', '-i', SENTENCE!.path, '-af', 'apad=pad_len=64000', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', microphone], {
    budgetSeconds: 60,
  });
  await runFfmpeg(['-y', '-i', camera, '-t', '3', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', short], { budgetSeconds: 60 });
  return { camera, microphone, short };
}

beforeAll(async () => {
  if (!SENTENCE) return;
  work = await mkdtemp(join(tmpdir(), 'vidbot-console-recorder-'));
  shots = process.env.CONSOLE_SCREENSHOTS ? join(REPO_ROOT, 'docs') : join(work, 'shots');
  await mkdir(shots, { recursive: true });
  const { camera, microphone, short } = await fakeDevices(work);
  shortFilm = short;
  [app, browser] = await Promise.all([
    startTestRuntime(),
    launchBrowser([
      '--use-fake-device-for-media-stream',
      // Headless Chromium asks no one: without this, getUserMedia answers NotSupportedError whatever the context grants.
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${camera}`,
      `--use-file-for-fake-audio-capture=${microphone}`,
    ]),
  ]);
  context = await browser.newContext({ viewport: DESKTOP, permissions: ['camera', 'microphone'] });
  page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  await signIn(page, app);
}, 120_000);

/**
 * A real person's recording (test/fixtures/footage, a man: a man's voice), made a bot through the API after the
 * first case's screenshots of the bots: it prepares while the other cases run, and its card's warnings are checked last.
 */
async function makePersonBot() {
  const form = new FormData();
  form.set('name', 'Person');
  form.set('voice', 'espeak:en-us+m6');
  form.set('consent', 'true');
  form.set('video', new Blob([await readFile(join(REPO_ROOT, 'test/fixtures/footage/person.mp4'))], { type: 'video/mp4' }), 'person.mp4');
  const made = await fetch(`${app.baseUrl}/v1/bot/person`, { method: 'PUT', headers: { Authorization: `Bearer ${app.apiKey}` }, body: form });
  expect(made.status, await made.clone().text()).toBe(202);
}

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

const DESKTOP = { width: 1280, height: 1700 };

/** Records with the webcam for about `seconds`, then the listening pause (5 s): the recording stops by itself. */
async function recordVideo(seconds: number) {
  await page.getByRole('button', { name: 'Turn the camera on' }).click();
  await page.getByRole('button', { name: 'Start recording' }).click();
  await page.getByText('Read this aloud, looking into the camera:').waitFor();
  await page.waitForTimeout(seconds * 1000);
  await page.getByRole('button', { name: 'I have read it: start the listening pause' }).click();
  const cue = page.getByRole('status').filter({ hasText: 'Now stay still with your mouth closed for 5 s' });
  await cue.waitFor();
  await page.getByLabel('Recording: play webcam-recording.webm').waitFor({ timeout: 20_000 });
}

/** The preview player's duration once it has read the file's header (Infinity if the WebM said none). */
const playerSeconds = (label: string) =>
  page.getByLabel(label).evaluate(
    (player: any) =>
      new Promise<number>((resolve) => {
        if (player.readyState >= 1) resolve(player.duration);
        else player.addEventListener('loadedmetadata', () => resolve(player.duration), { once: true });
      }),
  );

const apiGet = async (path: string): Promise<any> =>
  (await fetch(`${app.baseUrl}/${path}`, { headers: { Authorization: `Bearer ${app.apiKey}` } })).json();

describe.skipIf(!librivoxInstalled())('console: recording', () => {
  const videoBotCard = () => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Me on camera', exact: true }) });

  it('sends a video bot recorded with the webcam: the script and the pause, refusals by their fields, the preview', async () => {
    await page.getByRole('button', { name: 'Bots' }).click();
    await page.getByRole('radio', { name: 'A video of a person' }).check();
    await page.getByLabel('Name', { exact: true }).fill('Me on camera');
    // Nothing is marked wrong before sending.
    expect(await page.locator('.maker .field-error, .maker [aria-invalid=true]').count()).toBe(0);

    // A file too short, and no consent: each refusal by its field, nothing sent.
    await dropFile(page, 'Recording', shortFilm, 'short.mp4', 'video/mp4');
    await page.getByLabel('Recording: play short.mp4').waitFor();
    await page.getByRole('button', { name: 'Make bot' }).click();
    const recordingError = page.locator('#bot-video-error');
    await expect.poll(() => recordingError.innerText(), { timeout: 5_000 }).toContain('too short');
    expect(await page.locator('#bot-consent-error').innerText()).toContain('agreed to be made into a bot');
    expect(await page.getByLabel('The person filmed agreed', { exact: false }).getAttribute('aria-invalid')).toBe('true');
    expect((await apiGet('v1/bot')).bots.some((b: { uid: string }) => b.uid === 'me-on-camera')).toBe(false);
    await page.screenshot({ path: join(shots, 'console-video-bot-refused.png'), fullPage: true });

    // Recorded with the webcam, long enough: its preview plays, with a duration (the recorder's WebM is given one) of about the time recorded.
    await recordVideo(7);
    const seconds = await playerSeconds('Recording: play webcam-recording.webm');
    expect(seconds).toBeGreaterThan(10);
    expect(seconds).toBeLessThan(90);
    await page.getByLabel('Recording: play webcam-recording.webm').evaluate((player: any) => player.play());
    await expect
      .poll(() => page.getByLabel('Recording: play webcam-recording.webm').evaluate((player: any) => player.currentTime))
      .toBeGreaterThan(0);
    await page.getByLabel('The person filmed agreed', { exact: false }).check();
    // What the recording and the tick answered is no longer marked wrong, and the file input no longer names the short file.
    expect(await page.locator('#bot-video-error, #bot-consent-error').count()).toBe(0);
    expect(await page.locator('#bot-video').inputValue()).toBe('');
    expect(await page.getByLabel('The person filmed agreed', { exact: false }).getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByText('The bot cannot be sent yet.').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'console-video-bot.png'), fullPage: true });
    const curl = (await page.getByLabel('Bot curl command').textContent()) ?? '';
    expect(curl).toContain('/v1/uploads');
    expect(curl).toContain('"consent":true');

    await page.getByRole('button', { name: 'Make bot' }).click();
    // It prepares while the next cases run; its failure is checked last.
    await videoBotCard().getByRole('status').waitFor({ timeout: 20_000 });
    await makePersonBot();
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it("makes a clip in the person's own voice: recorded with a level meter, played back, its transcript; the video links its words", async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Create' }).click();
    const clip = page.getByRole('group', { name: 'Clip 1' });
    await clip.getByLabel('Bot', { exact: true }).selectOption('bot_ava', { timeout: 90_000 });
    await clip.getByRole('radio', { name: 'My own recording' }).check();
    expect(await clip.getByText('Captions need it').count()).toBe(1);
    expect(await clip.locator('.field-error, [aria-invalid=true]').count()).toBe(0);

    await clip.getByRole('button', { name: '● Record with the microphone' }).click();
    const meter = clip.getByRole('meter', { name: 'Microphone level' });
    // The sentence is heard: the meter moves.
    await expect.poll(() => meter.evaluate((m: any) => m.value), { timeout: 10_000, interval: 100 }).toBeGreaterThan(0.05);
    await page.waitForTimeout(3500);
    await clip.getByRole('button', { name: /Stop/ }).click();
    const player = 'Recording: play voice-recording.webm';
    await clip.getByLabel(player).waitFor();
    const seconds = await playerSeconds(player);
    expect(seconds).toBeGreaterThan(3);
    expect(seconds).toBeLessThan(10);
    await clip.getByLabel('Transcript').fill(SENTENCE!.text);
    expect(await page.getByLabel('curl command').innerText()).toContain('"audio_upload": "UPLOAD_ID_OF_THE_RECORDING"');
    await page.screenshot({ path: join(shots, 'console-voice-clip.png') });

    // A dropped file is heard before sending too (a second clip, then taken away).
    await page.getByRole('button', { name: 'Add clip' }).click();
    const clip2 = page.getByRole('group', { name: 'Clip 2' });
    await clip2.getByRole('radio', { name: 'My own recording' }).check();
    await dropFile(page, 'Recording', SENTENCE!.path, 'sentence.wav', 'audio/wav', clip2);
    expect(await playerSeconds('Recording: play sentence.wav')).toBeGreaterThan(2);
    await page.getByRole('button', { name: 'Remove clip 2' }).click();

    await page.getByRole('button', { name: 'Create video' }).click();
    const detail = page.locator('article[aria-labelledby="video-title"]');
    await detail.waitFor({ timeout: 60_000 });
    // A harness wait, not a bound: the recording is aligned to its transcript and the clip rendered on a loaded machine.
    await expect.poll(() => detail.locator('header .badge').innerText(), { timeout: 120_000, interval: 500 }).toBe('completed');
    const words = detail.getByRole('link', { name: /^Words \(JSON\)/ });
    await expect.poll(() => words.innerText(), { timeout: 10_000 }).toMatch(/· 8 words$/);
    const videoId = (await detail.getByRole('heading', { level: 3 }).innerText()).trim();
    const video = await apiGet(`v1/video/${videoId}`);
    const spoken = (await (await fetch(video.output.captions.words_url)).json()) as { text: string }[];
    expect(spoken.map((w: { text: string }) => w.text.toLowerCase()).join(' ')).toBe(SENTENCE!.text);
    expect(consoleErrors).toEqual([]);
  }, 240_000);

  it('fits both forms in a 375 px phone', async () => {
    // A fresh form, still signed in (the key is in sessionStorage).
    await page.setViewportSize({ width: 375, height: 812 });
    await page.reload();
    await page.getByRole('navigation', { name: 'Sections' }).waitFor();
    await page.getByRole('group', { name: 'Clip 1' }).getByRole('radio', { name: 'My own recording' }).check();
    await page.getByRole('group', { name: 'Clip 1' }).getByRole('button', { name: '● Record with the microphone' }).click();
    await page.waitForTimeout(1500);
    await page.getByRole('group', { name: 'Clip 1' }).getByRole('button', { name: /Stop/ }).click();
    await page.getByLabel('Recording: play voice-recording.webm').waitFor();
    expect(await layoutWidth(page)).toBeLessThanOrEqual(375);
    await page.getByRole('group', { name: 'Clip 1' }).screenshot({ path: join(shots, 'console-voice-clip-phone.png') });

    await page.getByRole('button', { name: 'Bots' }).click();
    await page.getByRole('radio', { name: 'A video of a person' }).check();
    await page.getByRole('button', { name: 'Turn the camera on' }).click();
    await page.getByRole('button', { name: 'Start recording' }).click();
    await page.getByText('Read this aloud, looking into the camera:').waitFor();
    expect(await layoutWidth(page)).toBeLessThanOrEqual(375);
    await page.locator('.maker').screenshot({ path: join(shots, 'console-video-bot-phone.png') });
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(consoleErrors).toEqual([]);
    await page.setViewportSize(DESKTOP);
  }, 120_000);

  it("shows the video bot's failure and what to do, and the API has its consent", async () => {
    await page.getByRole('button', { name: 'Bots' }).click();
    const card = videoBotCard();
    const badge = card.getByRole('status');
    await badge.waitFor({ timeout: 20_000 });
    // A harness wait, not a bound: the footage is decoded and its landmarks found on a loaded CI machine.
    await expect.poll(() => badge.innerText(), { timeout: 240_000, interval: 500 }).toBe('failed');
    expect(await card.locator('.field-error').innerText()).toContain('mouth_never_closed');
    expect(await card.locator('.what-to-do').innerText()).toContain('include the listening pause');
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(shots, 'console-video-bot-failed.png') });

    // Through the API: a video bot, its consent recorded with the key that gave it.
    const bot = await apiGet('v1/bot/me-on-camera');
    expect(bot).toMatchObject({ kind: 'video', status: 'failed', error: { code: 'mouth_never_closed' }, consent: { given: true } });
    expect(consoleErrors).toEqual([]);
  }, 300_000);

  it("shows a ready video bot's warnings on its card: what the recording lacks and what to record", async () => {
    await page.getByRole('button', { name: 'Bots' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Person', exact: true }) });
    // A harness wait, not a bound: the recording is prepared beside the other cases on a loaded CI machine.
    await expect.poll(async () => (await apiGet('v1/bot/person')).status, { timeout: 420_000, interval: 2_000 }).not.toBe('preparing');
    const person = await apiGet('v1/bot/person');
    expect(person.status, JSON.stringify(person.error)).toBe('ready');
    // The page reads its bots again while one prepares: the card turns ready within its next reading.
    await expect.poll(() => card.getByRole('status').innerText(), { timeout: 20_000 }).toBe('ready');
    // This recording never rounds the lips (docs/video-bots.md, "What the preparation warns of").
    const warnings = card.locator('.warnings');
    expect(await warnings.innerText()).toMatch(/What the recording lacks[\s\S]*the lips are never rounded in the recording[\s\S]*say a few words/);
    expect(await warnings.locator('li').count()).toBe(1);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(shots, 'console-video-bot-ready.png') });
    expect(person.footage.warnings.map((w: { code: string }) => w.code)).toEqual(['no_rounded_lips']);
    expect(consoleErrors).toEqual([]);
  }, 450_000);
});
