/**
 * Bots of an account through the local runtime: PUT, GET, the listing, DELETE, the rules on uids and voices, the
 * owner-only view, a clip naming a bot that is not ready, and the prepare job's signed bot.* events.
 *
 * Two runtimes: one with the wiring as it is (the look builders on this branch are placeholders that refuse every
 * image, so a bot fails with `image_invalid`: the failure path for real), and one whose prepare function answers
 * with a built-in look (test/e2e/fixtures), so a bot becomes ready and a video with it completes.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functions, type FunctionDecl } from '../../infra/wiring.ts';
import { createKey } from '../../infra/scripts/keys.ts';
import { startFileServer } from '../../infra/scripts/support/file-server.ts';
import { startTestRuntime, type TestRuntime } from '../local/harness.ts';
import { keyTarget } from '../reliability/helpers.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const ava = resolve(import.meta.dirname, '..', '..', 'functions', 'render', 'bots', 'ava');
const png = (file: string) => new Blob([readFileSync(join(ava, file))], { type: 'image/png' });

function put(app: TestRuntime, uid: string, form: FormData | Record<string, unknown>, headers = app.authHeaders) {
  const body = form instanceof FormData ? form : JSON.stringify(form);
  return fetch(`${app.baseUrl}/v1/bot/${uid}`, {
    method: 'PUT',
    headers: { ...headers, ...(form instanceof FormData ? {} : { 'Content-Type': 'application/json' }) },
    body,
  });
}

function drawnForm(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set('mouth_closed', png('head-m0-eo.png'), 'closed.png');
  form.set('mouth_open', png('head-m4-eo.png'), 'open.png');
  return form;
}

async function waitForStatus(app: TestRuntime, uid: string, done: (status: string) => boolean, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const bot = (await (await fetch(`${app.baseUrl}/v1/bot/${uid}`, { headers: app.authHeaders })).json()) as Record<string, any>;
    if (done(bot.status) || Date.now() > until) return bot;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('bots of an account, with the placeholder look builders', () => {
  let app: TestRuntime;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let other: Record<string, string>;

  beforeAll(async () => {
    app = await startTestRuntime();
    receiver = await startWebhookReceiver(app.webhookSecret);
    const issued = await createKey(keyTarget(app), { name: 'another account' });
    other = { Authorization: `Bearer ${issued.apiKey}` };
  }, 60_000);
  afterAll(async () => {
    await receiver?.stop();
    await app?.stop();
  });

  it('refuses malformed uids (400), the built-in namespace (400) and a built-in bot (403)', async () => {
    for (const uid of ['ab', 'Has-Caps', 'x'.repeat(65), 'dot.ted', 'bot_mine']) {
      const res = await put(app, encodeURIComponent(uid), drawnForm({ name: 'N' }));
      expect(res.status, uid).toBe(400);
      expect(((await res.json()) as any).error.details[0].path).toBe('uid');
    }
    const builtIn = await put(app, 'bot_ava', drawnForm({ name: 'N' }));
    expect(builtIn.status).toBe(403);
    expect(await builtIn.json()).toMatchObject({ error: { code: 'forbidden' } });
  });

  it('refuses an unknown voice, a missing name, an image that is not one and two image sources, naming each field', async () => {
    const voice = await put(app, 'my-bot', drawnForm({ name: 'N', voice: 'espeak:klingon' }));
    expect(voice.status).toBe(400);
    expect(((await voice.json()) as any).error.details).toEqual([expect.objectContaining({ path: 'voice' })]);

    const noName = await put(app, 'my-bot', drawnForm({}));
    expect(((await noName.json()) as any).error.details).toEqual([expect.objectContaining({ path: 'name' })]);

    const notImage = new FormData();
    notImage.set('name', 'N');
    notImage.set('image', new Blob(['hello, not a picture']), 'photo.jpg');
    const res = await put(app, 'my-bot', notImage);
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.details).toEqual([expect.objectContaining({ path: 'image' })]);

    const both = drawnForm({ name: 'N', image_url: 'https://example.com/me.jpg' });
    expect(((await (await put(app, 'my-bot', both)).json()) as any).error.details[0].message).toMatch(/one image source/);
    expect((await fetch(`${app.baseUrl}/v1/bot/my-bot`, { headers: app.authHeaders })).status).toBe(404);
  });

  it('accepts a drawn bot (202, preparing), shows it to its owner only, refuses it in a clip until ready, and fails it with the builder\'s code and a signed bot.failed', async () => {
    const res = await put(app, 'my-bot', drawnForm({ name: 'Mine', voice: 'espeak:en-gb+m3', default_position: 'top_left', webhook: receiver.url }));
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as Record<string, any>;
    expect(accepted).toMatchObject({ uid: 'my-bot', name: 'Mine', built_in: false, status: 'preparing', voice_id: 'espeak:en-gb+m3', default_position: 'top-left', preview_image_url: null });

    // Owner only: listed for its account, a 404 and absent for another, and an unknown bot in the other's clip.
    const mine = (await (await fetch(`${app.baseUrl}/v1/bot`, { headers: app.authHeaders })).json()) as { bots: any[] };
    expect(mine.bots.map((b) => b.uid)).toEqual(['bot_ava', 'bot_leo', 'bot_maya', 'bot_otto', 'my-bot']);
    expect(mine.bots.slice(0, 4).every((b) => b.built_in === true && b.status === 'ready')).toBe(true);
    const theirs = (await (await fetch(`${app.baseUrl}/v1/bot/`, { method: 'POST', headers: other })).json()) as { bots: any[] };
    expect(theirs.bots.map((b) => b.uid)).not.toContain('my-bot');
    expect((await fetch(`${app.baseUrl}/v1/bot/my-bot`, { headers: other })).status).toBe(404);
    const clip = { webhook: receiver.url, clips: [{ bot_uid: 'my-bot', text: 'Hello.' }] };
    const foreign = await fetch(`${app.baseUrl}/v1/bot`, { method: 'POST', headers: { ...other, 'Content-Type': 'application/json' }, body: JSON.stringify(clip) });
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as any).error.details[0]).toMatchObject({ path: 'clips[0].bot_uid', message: expect.stringMatching(/unknown bot "my-bot"/) });

    // Its own clip: refused while it is not ready (preparing now, or already failed on this branch).
    const notReady = await fetch(`${app.baseUrl}/v1/bot`, { method: 'POST', headers: { ...app.authHeaders, 'Content-Type': 'application/json' }, body: JSON.stringify(clip) });
    expect(notReady.status).toBe(409);
    expect(((await notReady.json()) as any).error.code).toBe('bot_not_ready');

    await receiver.waitForDelivered(1, 30_000);
    const [event] = receiver.delivered();
    expect(event!.verified).toBe(true);
    expect(event!.event).toMatchObject({ type: 'bot.failed', data: { uid: 'my-bot', status: 'failed', error: { code: 'image_invalid' } } });
    expect(event!.headers['webhook-id']).toBe(`evt_bot_${app.tenantId}_my-bot_${accepted.version}_failed`);
    const failed = await waitForStatus(app, 'my-bot', (s) => s !== 'preparing');
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'image_invalid', message: expect.any(String) }, preview_image_url: null });
  });

  it('refuses an upload over what API Gateway and Lambda carry (413, pointing at image_url); a create body keeps its 256 KiB', async () => {
    const form = new FormData();
    form.set('name', 'Big');
    const big = Buffer.alloc(4_500_000, 0);
    Buffer.from([0xff, 0xd8, 0xff]).copy(big);
    form.set('image', new Blob([big], { type: 'image/jpeg' }), 'big.jpg');
    const res = await put(app, 'big-bot', form);
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error).toMatchObject({ code: 'payload_too_large', message: expect.stringMatching(/image_url/) });
    expect((await fetch(`${app.baseUrl}/v1/bot/big-bot`, { headers: app.authHeaders })).status).toBe(404);
  });

  it('takes a JSON body with image_url, and refuses one naming an address it never fetches', async () => {
    const files = await startFileServer({ '/me.png': join(ava, 'preview.png') });
    try {
      const res = await put(app, 'from-url', { name: 'From a URL', image_url: `${files.base}/me.png` });
      expect(res.status).toBe(202);
      expect(await waitForStatus(app, 'from-url', (s) => s !== 'preparing')).toMatchObject({ status: 'failed', error: { code: 'image_invalid' } });
    } finally {
      await files.stop();
    }
    const metadata = await put(app, 'from-url', { name: 'N', image_url: 'http://169.254.169.254/latest/meta-data' });
    expect(metadata.status).toBe(400);
    expect(((await metadata.json()) as any).error.details[0].path).toBe('image_url');
  });

  it('deletes: 200 with JSON, then 404; a built-in bot is a 403 in the error shape, an unknown one and another account\'s a 404', async () => {
    expect((await fetch(`${app.baseUrl}/v1/bot/my-bot`, { method: 'DELETE', headers: other })).status).toBe(404);
    const res = await fetch(`${app.baseUrl}/v1/bot/my-bot`, { method: 'DELETE', headers: app.authHeaders });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ uid: 'my-bot', deleted: true });
    expect((await fetch(`${app.baseUrl}/v1/bot/my-bot`, { headers: app.authHeaders })).status).toBe(404);
    expect((await fetch(`${app.baseUrl}/v1/bot/my-bot`, { method: 'DELETE', headers: app.authHeaders })).status).toBe(404);
    const builtIn = await fetch(`${app.baseUrl}/v1/bot/bot_ava`, { method: 'DELETE', headers: app.authHeaders });
    expect(builtIn.status).toBe(403);
    expect(await builtIn.json()).toMatchObject({ error: { code: 'forbidden', message: expect.stringMatching(/built-in/) } });
  });
});

describe('a bot that becomes ready, and a video with it', () => {
  let app: TestRuntime;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    const wiring = functions as Record<string, FunctionDecl>;
    app = await startTestRuntime({ functions: { ...wiring, prepare: { ...wiring.prepare!, entry: 'test/e2e/fixtures/prepare-with-built-in-look.ts' } } });
    receiver = await startWebhookReceiver(app.webhookSecret);
  }, 60_000);
  afterAll(async () => {
    await receiver?.stop();
    await app?.stop();
  });

  it('gets a signed bot.ready with a preview, then renders a clip with it', async () => {
    const res = await put(app, 'presenter', drawnForm({ name: 'Presenter', voice: 'espeak:en-us+f3', webhook: receiver.url }));
    expect(res.status).toBe(202);
    await receiver.waitForDelivered(1, 30_000);
    const ready = receiver.delivered()[0]!;
    expect(ready.verified).toBe(true);
    expect(ready.event).toMatchObject({ type: 'bot.ready', data: { uid: 'presenter', status: 'ready', built_in: false } });
    const preview = await fetch(ready.event!.data.preview_image_url as string);
    expect(preview.status).toBe(200);
    expect(Buffer.from(await preview.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');

    const create = await fetch(`${app.baseUrl}/v1/bot`, {
      method: 'POST',
      headers: { ...app.authHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ webhook: receiver.url, clips: [{ bot_uid: 'presenter', text: 'Hello from my own bot.', remove_bot_background: true }] }),
    });
    expect(create.status).toBe(202);
    await receiver.waitForDelivered(2, 90_000);
    const done = receiver.delivered()[1]!;
    expect(done.verified).toBe(true);
    expect(done.event).toMatchObject({ type: 'video.completed', data: { status: 'completed', clips: [{ bot_uid: 'presenter', status: 'rendered' }] } });
  }, 120_000);
});
