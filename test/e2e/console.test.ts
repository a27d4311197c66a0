/**
 * The console in a real browser (headless Chromium from @sparticuz/chromium, driven by playwright-core) against
 * the local runtime: sign in, see the bots, compose the interface's sample (two clips), see a bad input's message
 * by its field, submit, watch the progress reach completed, play the video, find its event verified in the
 * webhook inbox, delete it. Then make a drawn bot from two PNGs (one dropped, one chosen) and a rounded mouth, watch it become ready,
 * make a 9:16 video with burned captions in a Spanish voice with it, play it with its captions track, and delete
 * both. Controls are found by their accessible names, as a person using a screen reader would.
 *
 * Screenshots go to a temporary directory; CONSOLE_SCREENSHOTS=1 writes them to docs/ instead (the README's).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '#infra/local/runtime.ts';
import { desktopPage, signIn } from '../support/browser.ts';
import { app, botBadge, browser, dropFile, files, fillClip, shots, useConsoleRuntime, work } from '../support/console-e2e.ts';

// Globals of the page, for the functions page.evaluate runs there (the project's types are Node's, not the DOM's).
declare const document: any;
declare const window: any;
declare const sessionStorage: any;

useConsoleRuntime();

describe('console', () => {
  it('makes the interface sample from sign-in to a played, verified and deleted video', async () => {
    const { context, page, consoleErrors } = await desktopPage(browser);

    await signIn(page, app);
    // The key is kept for the tab only, and never shown or put in a URL.
    expect(await page.evaluate(() => sessionStorage.getItem('vidbot.apiKey'))).toBe(app.apiKey);
    expect(page.url()).not.toContain(app.apiKey);

    // Bots: the four built-in ones, with their previews loaded.
    await page.getByRole('button', { name: 'Bots' }).click();
    for (const name of ['Ava', 'Leo', 'Maya', 'Otto']) await page.getByRole('heading', { name }).waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('.bot-card img')].every((img: any) => img.complete && img.naturalWidth > 0));
    await page.screenshot({ path: join(shots, 'console-bots.png') });

    // Compose: the webhook defaults to the account's inbox.
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const inbox = `${app.baseUrl}/v1/inbox/${app.tenantId}`;
    await expect.poll(() => page.getByLabel('Webhook URL').inputValue(), { timeout: 10_000 }).toBe(inbox);
    const background = `${files.base}/background.mp4`;
    await fillClip(page.getByRole('group', { name: 'Clip 1' }), {
      bot: 'bot_ava',
      text: 'Welcome to our product tour!',
      position: 'bottom right',
      removeBackground: true,
      background,
      volume: '0.5',
      entry: 'fade_in',
      exit: 'fade_out',
      keep: false,
      name: 'Intro',
    });
    await page.getByRole('button', { name: 'Add clip' }).click();
    const clip2 = page.getByRole('group', { name: 'Clip 2' });
    await fillClip(clip2, {
      bot: 'bot_leo',
      text: 'Let me show you around.',
      position: 'top left',
      removeBackground: false,
      background,
      volume: '0.2',
      entry: 'fade_in',
      exit: 'fade_out',
      keep: true,
      name: 'Tour',
    });
    // A clip may speak with another voice than its bot's (GET /v1/voices fills the picker, by language).
    await expect.poll(() => clip2.getByLabel('Voice', { exact: true }).locator('option').count(), { timeout: 10_000 }).toBeGreaterThan(200);
    await clip2.getByLabel('Voice', { exact: true }).selectOption('espeak:es+m3');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shots, 'console-desktop.png') });
    const text2 = clip2.getByLabel('Text', { exact: true });
    await text2.fill('?!');
    await expect.poll(() => clip2.getByText('2 / 2000 characters').count(), { timeout: 5_000 }).toBe(1);

    // The curl command shown before sending is the request, with the key left out.
    const curl = await page.getByLabel('curl command').innerText();
    expect(curl).toContain('Authorization: Bearer $KEY');
    expect(curl).toContain(`"webhook": "${inbox}"`);
    expect(curl).toContain('"transitions": "fade_in fade_out"');
    expect(curl).toContain('"reusable_clip": true');
    expect(curl).toContain('"bot_position": "bottom-right"'); // picked, though it is Ava's default
    expect(curl).toContain('"bot_position": "top-left"');
    expect(curl).toContain('"voice": "espeak:es+m3"');
    expect(await page.evaluate(() => document.body.innerText)).not.toContain(app.apiKey);

    // A bad input: the API's message appears by the field its details[].path names (clips[1].text).
    await page.getByRole('button', { name: 'Create video' }).click();
    await expect.poll(() => text2.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    const errorId = (await text2.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-error'))!;
    expect(await page.locator(`#${errorId}`).innerText()).toContain('at least one letter or digit');
    expect(await clip2.locator('.field-error').count()).toBe(1);
    expect(await page.getByRole('group', { name: 'Clip 1' }).locator('.field-error').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'console-error.png') });

    await text2.fill('Let me show you around.');
    await page.getByRole('button', { name: 'Create video' }).click();

    // Videos: the new one is selected; its progress goes to completed.
    const detail = page.locator('article[aria-labelledby="video-title"]');
    await detail.waitFor();
    const videoId = (await detail.getByRole('heading', { level: 3 }).innerText()).trim();
    expect(videoId).toMatch(/^vid_/);
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const status = await detail.locator('header .badge').innerText();
          seen.add(status);
          return status;
        },
        // A harness wait, not a bound: the clips' background goes through the fetch stage, whose environment
        // starts cold in a test runtime, on a CI machine running other e2e files at once.
        { timeout: 90_000, interval: 250 },
      )
      .toBe('completed');
    expect(await detail.getByText('2 of 2 clips rendered').count()).toBe(1);

    // The player: the video loads and plays (H.264 in Chromium).
    const ready = await page.waitForFunction(
      async () => {
        const video = document.querySelector('video');
        if (!video) return false;
        video.muted = true;
        if (video.paused) await video.play().catch(() => undefined);
        return video.readyState >= 2 && video.duration > 0 ? { readyState: video.readyState, duration: video.duration } : false;
      },
      undefined,
      { timeout: 20_000, polling: 250 },
    );
    const played = (await ready.jsonValue()) as { readyState: number; duration: number };
    expect(played.readyState).toBeGreaterThanOrEqual(2);
    expect(played.duration).toBeGreaterThan(2);
    expect(await detail.getByRole('link', { name: 'Download' }).getAttribute('href')).toMatch(/^http/);
    // The video's poster (its thumbnail) is the player's poster.
    expect(await page.locator('video').getAttribute('poster')).toMatch(/^http.*\.jpg/);
    await expect.poll(() => detail.getByRole('table', { name: 'Webhook attempts' }).innerText(), { timeout: 20_000 }).toContain('200');
    await page.screenshot({ path: join(shots, 'console-videos.png'), fullPage: true });

    // The inbox has the video's event, marked verified.
    await page.getByRole('button', { name: 'Webhook inbox' }).click();
    const event = page.locator('li.event', { hasText: videoId });
    await event.waitFor({ timeout: 20_000 });
    expect(await event.innerText()).toContain('video.completed');
    expect(await event.innerText()).toContain('signature verified');
    await event.getByText('Payload', { exact: true }).click();
    await page.screenshot({ path: join(shots, 'console-inbox.png') });

    // Delete it.
    await page.getByRole('button', { name: 'Videos' }).click();
    await page.getByRole('button', { name: new RegExp(videoId) }).click();
    await page.getByRole('button', { name: 'Delete video' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    // The notice says so (polled with what it says instead, so a failure shows the page's own message).
    await expect
      .poll(async () => (await page.locator('.notice').allInnerTexts()).join(' | '), { timeout: 30_000, interval: 250 })
      .toContain(`Video ${videoId} deleted.`);
    await expect.poll(() => page.getByRole('button', { name: new RegExp(videoId) }).count(), { timeout: 5_000 }).toBe(0);
    const gone = await fetch(`${app.baseUrl}/v1/video/${videoId}`, { headers: app.authHeaders });
    expect(gone.status).toBe(404);

    // Chromium logs the deliberate bad request's 400; nothing else may fail on the page.
    const unexpected = consoleErrors.filter((text) => !/status of 400 \(Bad Request\)/.test(text));
    expect(unexpected, unexpected.join('\n')).toEqual([]);
    await context.close();
  }, 180_000);

  it('makes a drawn bot from two PNGs and a mouth shape, then a 9:16 video with burned captions in a Spanish voice with it', async () => {
    const { context, page, consoleErrors } = await desktopPage(browser);
    await signIn(page, app);

    // The form: drawn layers, the mouth closed dropped on its zone and the mouth open chosen with the file input.
    await page.getByRole('button', { name: 'Bots' }).click();
    await page.getByLabel('Drawn bot (PNG layers)').check();
    const art = join(REPO_ROOT, 'functions/render/bots/ava');
    await dropFile(page, 'Mouth closed', join(art, 'head-m0-eo.png'), 'sol-closed.png', 'image/png');
    await expect.poll(() => page.locator('#bot-mouth-closed-hint').innerText(), { timeout: 5_000 }).toContain('sol-closed.png');
    expect(await page.getByLabel('Mouth closed', { exact: true }).evaluate((input: any) => input.files.length)).toBe(1); // the drop reached the input too
    await page.getByLabel('Mouth open', { exact: true }).setInputFiles(join(art, 'head-m4-eo.png'));
    await page.getByRole('img', { name: /Mouth open: head-m4-eo\.png/ }).waitFor();
    // An optional mouth shape: the rounded mouth, a drawing of ava's between closed and open.
    await page.getByLabel(/^Mouth round/).setInputFiles(join(art, 'head-m2-eo.png'));
    await page.getByRole('img', { name: /Mouth round .*: head-m2-eo\.png/ }).waitFor();

    // The uid is suggested from the name; a bad one is refused by its field, before anything is sent.
    await page.getByLabel('Name', { exact: true }).fill('Sol Ñandú');
    expect(await page.getByLabel('uid', { exact: true }).inputValue()).toBe('sol-nandu');
    const uid = page.getByLabel('uid', { exact: true });
    await uid.fill('Sol Ñandú!');
    await page.getByRole('button', { name: 'Make bot' }).click();
    await expect.poll(() => uid.getAttribute('aria-invalid'), { timeout: 5_000 }).toBe('true');
    expect(await page.locator('#bot-uid-error').innerText()).toContain('3 to 64 characters of a-z, 0-9');
    expect(await uid.getAttribute('aria-describedby')).toContain('bot-uid-error');
    await page.screenshot({ path: join(shots, 'console-bot-form.png'), fullPage: true });
    await uid.fill('sol-nandu');
    await page.getByRole('button', { name: 'Use my webhook inbox' }).click(); // bot.ready / bot.failed go to the inbox
    const botCurl = await page.getByLabel('Bot curl command').textContent();
    expect(botCurl).toContain("-F 'mouth_open=@head-m4-eo.png'");
    expect(botCurl).toContain("-F 'mouth_round=@head-m2-eo.png'");
    expect(botCurl).toContain(`--form-string 'webhook=${app.baseUrl}/v1/inbox/${app.tenantId}'`);

    // Sent: preparing, then ready with its preview, marked as the account's own (built-ins have no delete).
    await page.getByRole('button', { name: 'Make bot' }).click();
    await expect
      .poll(async () => (await page.locator('.notice').allInnerTexts()).join(' | '), { timeout: 15_000 })
      .toContain('Bot sol-nandu accepted');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Sol Ñandú', exact: true }) });
    await expect.poll(() => botBadge(page, 'Sol Ñandú').innerText(), { timeout: 90_000, interval: 500 }).toBe('ready');
    expect(await card.innerText()).toContain('yours');
    await card.getByRole('img', { name: 'Sol Ñandú, preview' }).waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('.bot-card img')].every((img: any) => img.complete && img.naturalWidth > 0));
    expect(await card.getByRole('button', { name: 'Delete bot Sol Ñandú' }).count()).toBe(1);
    // Its bot.ready went to the inbox; the card says so, and sends it again on request.
    await expect
      .poll(() => card.innerText(), { timeout: 15_000, interval: 500 })
      .toMatch(/Webhook event\s*delivered, 1 attempt \(last: HTTP 2\d\d\)/);
    await card.getByRole('button', { name: 'Send the webhook event of Sol Ñandú again' }).click();
    await expect
      .poll(async () => (await page.locator('.notice').allInnerTexts()).join(' | '), { timeout: 10_000 })
      .toContain('The webhook event of bot sol-nandu is being sent again');
    await expect.poll(() => card.innerText(), { timeout: 15_000, interval: 500 }).toMatch(/delivered, 2 attempts/);
    const ava = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Ava', exact: true }) });
    expect(await ava.innerText()).toContain('built-in');
    expect(await ava.getByRole('button').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'console-bots-own.png'), fullPage: true });

    // Compose: portrait, burned captions, the new bot speaking Spanish.
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByLabel('Aspect ratio').selectOption('9:16');
    await page.getByLabel('Captions').selectOption('burn');
    expect(await page.getByText('Frame: 720x1280.').count()).toBe(1);
    const clip = page.getByRole('group', { name: 'Clip 1' });
    await clip.getByLabel('Bot', { exact: true }).selectOption('sol-nandu');
    await clip.getByLabel('Text', { exact: true }).fill('¡Hola! Soy Sol. Bienvenidos a vidbot.');
    await clip.getByLabel('Filter voices').fill('spanish');
    const voiceSelect = clip.getByLabel('Voice', { exact: true });
    const offered = await voiceSelect.locator('option').evaluateAll((options: any[]) => options.map((o) => o.value));
    expect(offered[0]).toBe(''); // the bot's own voice comes first
    expect(offered).toContain('espeak:es+f3');
    expect(await voiceSelect.locator('optgroup').evaluateAll((groups: any[]) => groups.every((g) => /spanish/i.test(g.label)))).toBe(true);
    await voiceSelect.selectOption('espeak:es+f3');
    // The position is picked on a frame of the chosen shape: taller than wide.
    const frame = clip.getByRole('group', { name: /Frame preview, 9:16/ });
    const box = (await frame.boundingBox())!;
    expect(box.height / box.width).toBeGreaterThan(1.7);
    await clip.getByRole('radio', { name: 'bottom center' }).click();
    const curl = await page.getByLabel('curl command').innerText();
    expect(curl).toContain('"aspect_ratio": "9:16"');
    expect(curl).toContain('"captions": "burn"');
    expect(curl).toContain('"voice": "espeak:es+f3"');
    expect(curl).toContain('"bot_uid": "sol-nandu"');
    expect(curl).not.toContain('"resolution"'); // 720p is the default: not sent
    await page.screenshot({ path: join(shots, 'console-portrait.png') });
    await page.getByRole('button', { name: 'Create video' }).click();

    // It completes; the player is portrait and shows the captions track; the caption files are linked.
    const detail = page.locator('article[aria-labelledby="video-title"]');
    await detail.waitFor();
    const videoId = (await detail.getByRole('heading', { level: 3 }).innerText()).trim();
    await expect.poll(() => detail.locator('header .badge').innerText(), { timeout: 90_000, interval: 250 }).toBe('completed');
    const played = await page.waitForFunction(
      () => {
        const video = document.querySelector('video');
        if (!video) return false;
        video.muted = true;
        if (video.paused) video.play().catch(() => undefined);
        // Off by default (burned captions would show twice): loaded, not shown, to count its cues.
        const track = video.textTracks[0];
        if (track && track.mode === 'disabled') track.mode = 'hidden';
        const cues = track?.cues?.length ?? 0;
        return video.readyState >= 2 && video.duration > 0 && cues > 0
          ? { width: video.videoWidth, height: video.videoHeight, cues, crossOrigin: video.crossOrigin, first: video.textTracks[0].cues[0].text }
          : false;
      },
      undefined,
      { timeout: 20_000, polling: 250 },
    );
    const seen = (await played.jsonValue()) as { width: number; height: number; cues: number; crossOrigin: string; first: string };
    expect({ width: seen.width, height: seen.height }).toEqual({ width: 720, height: 1280 });
    expect(seen.crossOrigin).toBe('anonymous');
    expect(seen.first.length).toBeGreaterThan(0);
    const vtt = await detail.getByRole('link', { name: 'Captions (VTT)' }).getAttribute('href');
    const srt = await detail.getByRole('link', { name: 'Captions (SRT)' }).getAttribute('href');
    expect((await (await fetch(vtt!)).text()).startsWith('WEBVTT')).toBe(true);
    expect(await (await fetch(srt!)).text()).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d\d\d --> /);
    expect(await detail.innerText()).toContain('9:16');
    await page.screenshot({ path: join(shots, 'console-captions.png'), fullPage: true });

    // Delete the video, then the bot.
    await page.getByRole('button', { name: 'Delete video' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await expect
      .poll(async () => (await page.locator('.notice').allInnerTexts()).join(' | '), { timeout: 30_000 })
      .toContain(`Video ${videoId} deleted.`);
    await page.getByRole('button', { name: 'Bots' }).click();
    await page.getByRole('button', { name: 'Delete bot Sol Ñandú' }).click();
    await page.getByRole('group', { name: 'Confirm deleting Sol Ñandú' }).getByRole('button', { name: 'Yes, delete' }).click();
    await expect
      .poll(async () => (await page.locator('.notice').allInnerTexts()).join(' | '), { timeout: 30_000 })
      .toContain('Bot sol-nandu deleted.');
    await expect.poll(() => page.getByRole('heading', { name: 'Sol Ñandú', exact: true }).count(), { timeout: 5_000 }).toBe(0);
    expect((await fetch(`${app.baseUrl}/v1/bot/sol-nandu`, { headers: app.authHeaders })).status).toBe(404);

    expect(consoleErrors, consoleErrors.join('\n')).toEqual([]);
    await context.close();
  }, 240_000);

  it('fits a 375 px phone and a 1280 px window: no sideways scrolling, every form control named, no errors', async () => {
    // A finished video with a long first clip, so that the list and the detail have all they show.
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${app.baseUrl}${path}`, { ...init, headers: { ...app.authHeaders, ...(init.headers as Record<string, string>) } });
    const { inbox_url } = (await (await api('/v1/inbox')).json()) as { inbox_url: string };
    const text =
      'A phone shows this video <break time="300ms"/> with its poster, its name and the first words of what the presenter says, and no sideways scrolling.';
    const created = await api('/v1/bot', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: inbox_url, clips: [{ bot_uid: 'bot_maya', text, clip_name: 'Phone check' }] }),
    });
    const { video_id } = (await created.json()) as { video_id: string };
    await expect
      .poll(async () => ((await (await api(`/v1/video/${video_id}`)).json()) as { status: string }).status, { timeout: 60_000, interval: 500 })
      .toBe('completed');
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const phoneErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && phoneErrors.push(m.text()));
    page.on('pageerror', (e) => phoneErrors.push(e.message));
    await page.goto(`${app.baseUrl}/`);
    await page.screenshot({ path: join(shots, 'console-signin-phone.png') });
    await signIn(page, app);
    await page.getByRole('group', { name: 'Clip 1' }).getByLabel('Text', { exact: true }).fill('Hello from a phone.');
    await page.getByRole('button', { name: 'Add clip' }).click();
    for (const tab of ['Create', 'Videos', 'Templates', 'Webhook inbox', 'Bots', 'Account']) {
      await page.getByRole('button', { name: tab, exact: true }).click();
      await page.waitForTimeout(300);
      if (tab === 'Videos') {
        // A video's detail (player, clip and attempt tables, long links) fits too, not only the list.
        const row = page.locator('.video-row').first();
        await expect.poll(() => row.locator('.name').textContent(), { timeout: 10_000 }).toBe('Phone check');
        // The words as said, without their markup; who speaks, and how many clips.
        expect(await row.locator('.words').textContent()).toMatch(/^A phone shows this video with its poster, .*… · bot_maya · 1 clip$/);
        await expect
          .poll(() => row.locator('img.thumb').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth), { timeout: 10_000 })
          .toBeGreaterThan(0);
        await row.click();
        await page.waitForSelector('#video-title');
        const detail = await page.locator('.detail').boundingBox();
        expect(detail!.x + detail!.width, 'the video detail at 375 px').toBeLessThanOrEqual(375);
        await page.screenshot({ path: join(shots, 'console-videos-phone.png'), fullPage: true });
      }
      await page.screenshot({ path: join(work, `phone-${tab.replace(/ /g, '-').toLowerCase()}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${tab} at 375 px`).toBeLessThanOrEqual(375);
      // Every input, select, textarea and button has an accessible name.
      const unnamed = await page.evaluate(() =>
        [...document.querySelectorAll('input, select, textarea, button')]
          .filter((el: any) => {
            const labelled = el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
            return !labelled && !el.textContent?.trim();
          })
          .map((el: any) => el.outerHTML.slice(0, 120)),
      );
      expect(unnamed, tab).toEqual([]);
      if (tab === 'Create') await page.screenshot({ path: join(shots, 'console-phone.png') });
    }
    expect(phoneErrors, phoneErrors.join('\n')).toEqual([]);
    await context.close();

    // The same sections at 1280 px: nothing wider than the window, no field marked wrong before anything was sent.
    const desktop = await desktopPage(browser, 900);
    await signIn(desktop.page, app);
    for (const tab of ['Create', 'Videos', 'Templates', 'Webhook inbox', 'Bots', 'Account']) {
      await desktop.page.getByRole('button', { name: tab, exact: true }).click();
      await desktop.page.waitForTimeout(300);
      await desktop.page.screenshot({ path: join(work, `desktop-${tab.replace(/ /g, '-').toLowerCase()}.png`), fullPage: true });
      expect(await desktop.page.evaluate(() => document.documentElement.scrollWidth), `${tab} at 1280 px`).toBeLessThanOrEqual(1280);
      expect(await desktop.page.locator('.field-error').count(), `${tab}: a field marked wrong before anything was sent`).toBe(0);
    }
    expect(desktop.consoleErrors, desktop.consoleErrors.join('\n')).toEqual([]);
    await desktop.context.close();
  }, 180_000);
});
