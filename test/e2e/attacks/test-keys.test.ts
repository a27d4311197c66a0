/**
 * Test keys as an attacker uses them: to read or change a live key's videos and templates (and the reverse), to
 * spend the live account's room for videos, to make a live video, or to be turned into a live key. A test key's
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

  it("a test key's videos do not take the live account's room, and the live account's do not take the test account's", async () => {
    const target = keyTarget(app);
    await setVideosInProgressLimit(target, app.tenantId, 0);
    expect((await create(app.authHeaders)).status).toBe(429);
    expect((await create(testKey)).status).toBe(202);
    await setVideosInProgressLimit(target, app.tenantId, 20);
    await setVideosInProgressLimit(target, testAccount, 0);
    expect((await create(testKey)).status).toBe(429);
    expect((await create(app.authHeaders)).status).toBe(202);
    await setVideosInProgressLimit(target, testAccount, 20);
  });

  it('a test key cannot ask its way out of test videos: 1080p asked, 360p made, marked test', async () => {
    const created = await body(await create(testKey, { resolution: '1080p', aspect_ratio: '9:16' }));
    expect(created.test).toBe(true);
    const video = await body(await call(`/v1/video/${created.video_id}`, { headers: testKey }));
    expect(video).toMatchObject({ test: true, resolution: '360p', aspect_ratio: '9:16' });
    expect(video.clips[0].overlays).toEqual([{ type: 'text', text: 'TEST', style: 'title', start: 0, end: null, position: 'top-left' }]);
  });

  it('a test account gets no live key, and a test key is never issued for a test account', async () => {
    const target = keyTarget(app);
    await expect(createKey(target, { name: 'sneaky', accountId: testAccount })).rejects.toThrow(/is a test account/);
    await expect(createKey(target, { name: 'sneaky', accountId: testAccount, test: true })).rejects.toThrow(/is a test account/);
    const again = await createKey(target, { name: 'ci-2', accountId: app.tenantId, test: true });
    expect(again.account.tenantId).toBe(testAccount);
  });
});
