/**
 * Fair use through the local runtime: an account may have 20 videos in progress; the 21st create is a 429
 * too_many_videos_in_progress in our error shape with Retry-After, until `npm run keys -- limit` raises the
 * account's limit. Queue consumers are off, so every accepted video stays queued (in progress).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '#domain/limits';
import { allowLoopbackPort } from '#infra/local/loopback.ts';
import { createKey } from '#infra/scripts/keys.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { client, clip, keyTarget } from '../../support/reliability.ts';

const exec = promisify(execFile);
let app: TestRuntime;
beforeAll(async () => {
  app = await startTestRuntime({ consumers: false });
  allowLoopbackPort(9); // the webhooks' port here: nothing listens on it, and nothing needs to
}, 60_000);
afterAll(() => app?.stop());

const keys = async (...args: string[]) =>
  (
    await exec(process.execPath, ['--import', 'tsx', 'infra/scripts/keys.ts', ...args, '--data-dir', app.dataDir], {
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    })
  ).stdout;

describe('videos in progress per account', () => {
  it(`accepts ${limits.defaultMaxVideosInProgress}, refuses the next with 429 and Retry-After, and lets it through once the keys CLI raises the limit`, async () => {
    const api = client(app);
    const body = (i: number) => ({ webhook: 'http://127.0.0.1:9/hook', create_video: false, clips: [clip(`Fair use number ${i}.`)] });
    // Sequential: the limit is exact for creates that do not overlap.
    for (let i = 0; i < limits.defaultMaxVideosInProgress; i++) expect((await api.create(body(i))).status, `create ${i + 1}`).toBe(202);

    const refused = await api.fetch('/v1/bot', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(20)) });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(limits.videosInProgressRetryAfterSeconds));
    expect(await refused.json()).toEqual({
      error: { code: 'too_many_videos_in_progress', message: expect.stringContaining(`already has ${limits.defaultMaxVideosInProgress} videos`) },
    });
    expect(await api.videoTotal()).toBe(limits.defaultMaxVideosInProgress); // nothing was stored

    // Another account is not affected by this one's videos.
    const neighbour = await createKey(keyTarget(app), { name: 'neighbour' });
    expect((await client(app, { Authorization: `Bearer ${neighbour.apiKey}` }).create(body(0))).status).toBe(202);

    expect(await keys('limit', '--account', app.tenantId, '--videos-in-progress', '21')).toContain(`may now have 21 videos in progress`);
    expect((await api.create(body(20))).status).toBe(202);
    expect((await api.create(body(21))).status).toBe(429);
  }, 90_000);

  it('the keys CLI refuses a bad limit and an unknown account', async () => {
    await expect(keys('limit', '--account', app.tenantId, '--videos-in-progress', 'lots')).rejects.toMatchObject({
      stderr: expect.stringMatching(/whole number/),
    });
    await expect(keys('limit', '--account', 'acct_nobody', '--videos-in-progress', '5')).rejects.toMatchObject({
      stderr: expect.stringMatching(/no account acct_nobody/),
    });
  }, 30_000);
});
