import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../../functions/commons/webhooks/signature.ts';
import { Vidbot, VidbotError, VideoFailedError, verifyWebhook, WaitTimeoutError, WebhookSignatureError } from '../src/index.ts';
import { fakeService, json, videoIn } from './fake-service.ts';

const created = {
  video_id: 'vid_1',
  status: 'queued',
  create_video: true,
  clips: 1,
  created_at: '2026-01-01T00:00:00.000Z',
  url: 'http://svc/v1/video/vid_1',
};
const fast = { retries: 3, baseDelayMs: 1, maxDelayMs: 5 };

describe('createVideo', () => {
  it('sends JSON with the key and a fresh Idempotency-Key, and returns the 202', async () => {
    const svc = fakeService({ 'POST /v1/bot': () => json(202, created) });
    const vidbot = new Vidbot({ baseUrl: 'http://svc/', apiKey: 'vb_k', fetch: svc.fetch });
    const answer = await vidbot.createVideo({ webhook: 'https://hook.example', clips: [{ bot_uid: 'bot_ava', text: 'Hello' }] });
    expect(answer.video_id).toBe('vid_1');
    const [request] = svc.seen;
    expect(request!.url).toBe('http://svc/v1/bot');
    expect(request!.headers.get('authorization')).toBe('Bearer vb_k');
    expect(request!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(request!.body)).toEqual({ webhook: 'https://hook.example', clips: [{ bot_uid: 'bot_ava', text: 'Hello' }] });
  });

  it("sends the interface's multipart form: clips as JSON text, every other field as text", async () => {
    const svc = fakeService({ 'POST /v1/bot': () => json(202, created) });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch });
    await vidbot.createVideo(
      { webhook: 'https://hook.example', create_video: true, clips: [{ bot_uid: 'bot_ava', text: 'It\'s "quoted"' }] },
      { form: true },
    );
    const form = svc.seen[0]!.form!;
    expect(form.get('webhook')).toBe('https://hook.example');
    expect(form.get('create_video')).toBe('true');
    expect(JSON.parse(form.get('clips') as string)).toEqual([{ bot_uid: 'bot_ava', text: 'It\'s "quoted"' }]);
  });

  it('retries a 429 and a 503 with the same Idempotency-Key, waiting as Retry-After says', async () => {
    const svc = fakeService({
      'POST /v1/bot': [
        () => json(429, { error: { code: 'rate_limited', message: 'slow down' } }, { 'retry-after': '0' }),
        () => json(503, { error: { code: 'unavailable', message: 'busy' } }),
        () => json(202, created),
      ],
    });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch, retry: fast });
    await vidbot.createVideo({ webhook: 'https://h.example', clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] }, { idempotencyKey: 'same-key' });
    expect(svc.seen.map((s) => s.headers.get('idempotency-key'))).toEqual(['same-key', 'same-key', 'same-key']);
    expect(svc.seen.map((s) => JSON.parse(s.body).clips[0].text)).toEqual(['Hi', 'Hi', 'Hi']);
  });

  it('gives up after its retries with the last error, Retry-After in seconds on it', async () => {
    const svc = fakeService({
      'POST /v1/bot': () => json(429, { error: { code: 'too_many_videos_in_progress', message: 'wait' } }, { 'retry-after': '0' }),
    });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch, retry: fast });
    const error = await vidbot.createVideo({ webhook: 'https://h.example', clips: [{ bot_uid: 'bot_ava', text: 'Hi' }] }).catch((e) => e);
    expect(error).toBeInstanceOf(VidbotError);
    expect(error).toMatchObject({ status: 429, code: 'too_many_videos_in_progress', retryAfterSeconds: 0 });
    expect(svc.seen).toHaveLength(4);
  });

  it('does not repeat a 400, and the error names each field', async () => {
    const details = [{ path: 'clips[0].text', message: 'is required' }];
    const svc = fakeService({ 'POST /v1/bot': () => json(400, { error: { code: 'invalid_request', message: 'The request is invalid.', details } }) });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch, retry: fast });
    const error = await vidbot.createVideo({ webhook: 'https://h.example', clips: [{ bot_uid: 'bot_ava', text: '' }] }).catch((e) => e);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', details });
    expect(svc.seen).toHaveLength(1);
  });

  it('does not repeat a POST that has no Idempotency-Key', async () => {
    const svc = fakeService({ 'POST /v1/video/{id}/redeliver': () => json(503, {}), 'POST /v1/video/vid_1/redeliver': () => json(503, {}) });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch, retry: fast });
    const { response } = await vidbot.api.POST('/v1/video/{id}/redeliver', { params: { path: { id: 'vid_1' } } });
    expect(response.status).toBe(503);
    expect(svc.seen).toHaveLength(1);
  });
  it("does not repeat a bot's PUT (a repeat could start a second preparation), but repeats a template's", async () => {
    const svc = fakeService({ 'PUT /v1/bot/bot_me': () => json(503, {}), 'PUT /v1/templates/tpl_a': () => json(503, {}) });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch, retry: fast });
    const bot = await vidbot.api.PUT('/v1/bot/{uid}', { params: { path: { uid: 'bot_me' } }, body: { name: 'Me' } as never });
    expect(bot.response.status).toBe(503);
    expect(svc.seen).toHaveLength(1);
    const template = await vidbot.api.PUT('/v1/templates/{uid}', { params: { path: { uid: 'tpl_a' } }, body: {} as never });
    expect(template.response.status).toBe(503);
    expect(svc.seen).toHaveLength(5);
  });
});

describe('waitForVideo', () => {
  it('looks until completed, reporting each state', async () => {
    const svc = fakeService({
      'GET /v1/video/vid_1': [() => json(200, videoIn('queued')), () => json(200, videoIn('rendering')), () => json(200, videoIn('completed'))],
    });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch });
    const states: string[] = [];
    const video = await vidbot.waitForVideo('vid_1', { intervalMs: 1, onProgress: (v) => states.push(v.status) });
    expect(video.output?.download_url).toBe('http://files/vid_1.mp4');
    expect(states).toEqual(['queued', 'rendering', 'completed']);
  });

  it('throws VideoFailedError with the code and clip of a failed video', async () => {
    const svc = fakeService({ 'GET /v1/video/vid_1': () => json(200, videoIn('failed')) });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch });
    const error = await vidbot.waitForVideo('vid_1').catch((e) => e);
    expect(error).toBeInstanceOf(VideoFailedError);
    expect(error).toMatchObject({ videoId: 'vid_1', code: 'background_unavailable', clipIndex: 0 });
  });

  it('stops at the deadline with the last status, looking less often as it waits', async () => {
    const svc = fakeService({ 'GET /v1/video/vid_1': () => json(200, videoIn('rendering')) });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch });
    const started = Date.now();
    const error = await vidbot.waitForVideo('vid_1', { timeoutMs: 300, intervalMs: 20, maxIntervalMs: 1000 }).catch((e) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error.lastStatus).toBe('rendering');
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    // 20, 30, 45, 67, 101 ms… then cut to the deadline: 7 looks, not the 15 a fixed 20 ms would make.
    expect(svc.seen.length).toBeLessThanOrEqual(8);
  });

  it('ends the pause as soon as the webhook event comes', async () => {
    let calls = 0;
    const svc = fakeService({ 'GET /v1/video/vid_1': () => json(200, videoIn(++calls > 1 ? 'completed' : 'rendering')) });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch });
    const event = Promise.resolve({ type: 'video.completed', timestamp: '', data: { video_id: 'vid_1' } } as never);
    const started = Date.now();
    await vidbot.waitForVideo('vid_1', { intervalMs: 60_000, event });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('batches', () => {
  it('sends rows as JSON, and a CSV as the form file "rows"', async () => {
    const batch = { batch_id: 'bat_1', rows: 2, status: 'queued', url: 'http://svc/v1/batches/bat_1' };
    const svc = fakeService({ 'POST /v1/templates/welcome/batches': () => json(202, batch) });
    const vidbot = new Vidbot({ baseUrl: 'http://svc', apiKey: 'vb_k', fetch: svc.fetch });
    await vidbot.sendBatch('welcome', { webhook: 'https://h.example', rows: [{ first_name: 'Ada' }] });
    expect(JSON.parse(svc.seen[0]!.body)).toEqual({ webhook: 'https://h.example', dry_run: false, rows: [{ first_name: 'Ada' }] });
    await vidbot.sendBatch('welcome', { webhook: 'https://h.example', rows: 'first_name\nAda\n"Grace, Jr."\n' });
    const file = svc.seen[1]!.form!.get('rows') as File;
    expect(await file.text()).toBe('first_name\nAda\n"Grace, Jr."\n');
    expect(svc.seen[1]!.headers.get('idempotency-key')).toBeTruthy();
  });

  it('writes rows as RFC 4180 CSV', () => {
    expect(Vidbot.csvOf([{ a: 'x, y', b: 'say "hi"' }, { a: 'z' }])).toBe('a,b\r\n"x, y","say ""hi"""\r\nz,\r\n');
  });
});

describe('verifyWebhook', () => {
  const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
  const payload = JSON.stringify({ type: 'video.completed', timestamp: '2026-01-01T00:00:00Z', data: { video_id: 'vid_1' } });

  it('accepts what the service signs, with headers in any letter case', () => {
    const headers = signWebhook({ msgId: 'msg_1', timestamp: new Date(), payload, secrets: [secret] });
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(payload, upper, secret)).toMatchObject({ type: 'video.completed', data: { video_id: 'vid_1' } });
    expect(verifyWebhook(new TextEncoder().encode(payload), new Headers(headers as unknown as Record<string, string>), secret).type).toBe(
      'video.completed',
    );
  });

  it('refuses an altered body, another secret, and an old timestamp', () => {
    const headers = signWebhook({ msgId: 'msg_1', timestamp: new Date(), payload, secrets: [secret] }) as unknown as Record<string, string>;
    expect(() => verifyWebhook(payload.replace('vid_1', 'vid_2'), headers, secret)).toThrow(WebhookSignatureError);
    expect(() => verifyWebhook(payload, headers, `whsec_${Buffer.from('another secret of 32 bytes!!!!!!').toString('base64')}`)).toThrow(
      WebhookSignatureError,
    );
    const old = signWebhook({ msgId: 'msg_1', timestamp: new Date(Date.now() - 10 * 60_000), payload, secrets: [secret] }) as unknown as Record<
      string,
      string
    >;
    expect(() => verifyWebhook(payload, old, secret)).toThrow(WebhookSignatureError);
  });
});
