/**
 * Test keys as an attacker uses them: to read or change a live key's videos and templates (and the reverse), to
 * spend the live account's room for videos or double it, to make a live video, or to be turned into a live key. A test key's
 * account is its own account (domain/test-mode.ts): every one of these is a 404, a refusal, or simply not counted.
 * No render runs here (no consumers): videos stay queued, which is all these need.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, setVideosInProgressLimit } from '#infra/scripts/keys.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { keyTarget } from '../../support/reliability.ts';

let app: TestRuntime;
let testKey: Record<string, string>;
let testAccount: string;

beforeAll(async () => {
  app = await startTestRuntime({ consumers: false });
  const issued = await createKey(keyTarget(app), { name: 'ci', accountId: app.tenantId, test: true });
  testKey = { Authorization: `Bearer ${issued.apiKey}` };
  testAccount = issued.account.tenantId;
}, 120_000);
afterAll(() => app?.stop());

const call = (path: string, init: RequestInit & { headers: Record<string, string> }) => fetch(`${app.baseUrl}${path}`, init);
const create = (headers: Record<string, string>, extra: Record<string, unknown> = {}) =>
  call('/v1/bot', {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ webhook: 'https://hooks.example.com/v', clips: [{ bot_uid: 'bot_ava', text: 'Hello.' }], ...extra }),
  });
const body = async (response: Response) => (await response.json()) as any;

describe('test key attacks', () => {
  it("neither key reads, lists, downloads, deletes or redelivers the other's video", async () => {
    const live = await body(await create(app.authHeaders));
    const test = await body(await create(testKey));
    for (const [id, stranger] of [
      [live.video_id, testKey],
      [test.video_id, app.authHeaders],
    ] as const) {
      expect((await call(`/v1/video/${id}`, { headers: stranger })).status).toBe(404);
      expect((await call(`/v1/video/${id}/download`, { headers: stranger, redirect: 'manual' })).status).toBe(404);
      expect((await call(`/v1/video/${id}/redeliver`, { method: 'POST', headers: stranger })).status).toBe(404);
      expect((await call(`/v1/video/${id}`, { method: 'DELETE', headers: stranger })).status).toBe(404);
    }
    const listed = async (headers: Record<string, string>) =>
      (await body(await call('/v1/video?limit=100', { headers }))).videos.map((v: any) => v.video_id);
    expect(await listed(testKey)).toEqual([test.video_id]);
    expect(await listed(app.authHeaders)).not.toContain(test.video_id);
  }, 120_000);

  it("a test key does not find the live account's template, nor send a batch of it", async () => {
    const template = { name: 'Hello', clips: [{ bot_uid: 'bot_ava', text: 'Hi {{name}}.' }] };
    const put = await call('/v1/templates/hello', {
      method: 'PUT',
      headers: { ...app.authHeaders, 'content-type': 'application/json' },
      body: JSON.stringify(template),
    });
    expect(put.status).toBe(200);
    expect((await call('/v1/templates/hello', { headers: testKey })).status).toBe(404);
    const batch = await call('/v1/templates/hello/batches', {
      method: 'POST',
      headers: { ...testKey, 'content-type': 'application/json' },
      body: JSON.stringify({ webhook: 'https://hooks.example.com/b', rows: [{ name: 'Eve' }] }),
    });
    expect(batch.status).toBe(404);
  }, 120_000);

  it("a test key's videos use only the room the live account's leave, and never take room from live videos", async () => {
    const target = keyTarget(app);
    // No consumers run here: every video made so far is still queued.
    const queued = async (headers: Record<string, string>) => (await body(await call('/v1/account', { headers }))).videos.by_status.queued ?? 0;
    const live = await queued(app.authHeaders);
    const test = await queued(testKey);
    await setVideosInProgressLimit(target, app.tenantId, live + test + 1);
    expect((await create(testKey)).status).toBe(202);
    expect((await create(testKey)).status).toBe(429);
    expect((await create(app.authHeaders)).status).toBe(202);
    await setVideosInProgressLimit(target, app.tenantId, 0);
    expect((await create(testKey)).status).toBe(429);
    await expect(setVideosInProgressLimit(target, testAccount, 50)).rejects.toThrow(
      new RegExp(`${testAccount} is a test account: it shares the limit of its live account; set that one's \\(--account ${app.tenantId}\\)`),
    );
    await setVideosInProgressLimit(target, app.tenantId, 20);
  });

  it('a test key cannot ask its way out of test videos: 1080p asked, 360p made, marked test', async () => {
    const created = await body(await create(testKey, { resolution: '1080p', aspect_ratio: '9:16' }));
    expect(created.test).toBe(true);
    const video = await body(await call(`/v1/video/${created.video_id}`, { headers: testKey }));
    expect(video).toMatchObject({ test: true, resolution: '360p', aspect_ratio: '9:16' });
    expect(video.clips[0].overlays).toEqual([{ type: 'text', text: 'TEST', style: 'title', start: 0, end: null, position: 'top-left' }]);
  });

  it("marks a test key's bots and batches test: true, and the live account's not", async () => {
    const putBot = (headers: Record<string, string>) =>
      call('/v1/bot/bot-me', {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Me', image_url: 'https://images.example.com/me.jpg' }),
      });
    for (const [headers, test] of [
      [testKey, true],
      [app.authHeaders, false],
    ] as const) {
      const put = await putBot(headers);
      expect(put.status).toBe(202);
      expect((await body(put)).test).toBe(test);
      expect((await body(await call('/v1/bot/bot-me', { headers }))).test).toBe(test);
      const template = { name: 'Hi', clips: [{ bot_uid: 'bot_ava', text: 'Hi {{name}}.' }] };
      const jsonHeaders = { ...headers, 'content-type': 'application/json' };
      expect((await call('/v1/templates/greeting', { method: 'PUT', headers: jsonHeaders, body: JSON.stringify(template) })).status).toBe(200);
      const sent = await call('/v1/templates/greeting/batches', {
        method: 'POST',
        headers: jsonHeaders,
        body: JSON.stringify({ webhook: 'https://hooks.example.com/b', rows: [{ name: 'Eve' }] }),
      });
      expect(sent.status).toBe(202);
      const batch = await body(await call(`/v1/batches/${(await body(sent)).batch_id}`, { headers }));
      expect(batch.test).toBe(test);
      expect((await body(await call('/v1/batches', { headers }))).batches.map((b: any) => b.test)).toEqual([test]);
    }
  }, 120_000);

  it('refuses at create (400) a test video its kept clips, breaks and transitions already make longer than 60 s', async () => {
    const breaks = 'One <break time="5s"/> two <break time="5s"/> three <break time="5s"/> four <break time="5s"/> five.';
    const clips = [1, 2, 3, 4].map(() => ({ bot_uid: 'bot_ava', text: breaks }));
    const refused = await create(testKey, { clips });
    expect(refused.status).toBe(400);
    const { error } = await body(refused);
    expect(error.details).toEqual([{ path: 'clips', message: expect.stringMatching(/at most 60 s; these clips last at least 80.0 s/) }]);
    expect((await create(testKey, { clips: clips.slice(0, 3) })).status).toBe(202);
  });

  it('a test account gets no live key, and a test key is never issued for a test account', async () => {
    const target = keyTarget(app);
    await expect(createKey(target, { name: 'sneaky', accountId: testAccount })).rejects.toThrow(/is a test account/);
    await expect(createKey(target, { name: 'sneaky', accountId: testAccount, test: true })).rejects.toThrow(/is a test account/);
    const again = await createKey(target, { name: 'ci-2', accountId: app.tenantId, test: true });
    expect(again.account.tenantId).toBe(testAccount);
  });
});
