/**
 * Authentication and tenant isolation through the gateway and the real authorizer: every way of not having a
 * valid key is a 401 with `WWW-Authenticate: Bearer realm="vidbot"` and the error shape; a revoked key stops
 * working; another tenant's video is a 404 for GET, DELETE and redeliver, and is left untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '#infra/scripts/keys.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { client, clip, isTerminal, keyTarget, startReceiver } from '../../support/reliability.ts';

const OPERATIONS: [string, string][] = [
  ['POST', '/v1/bot'],
  ['POST', '/v1/bot/'],
  ['POST', '/v1/create_video'],
  ['GET', '/v1/bot'],
  ['GET', '/v1/video'],
  ['GET', '/v1/video/vid_abc'],
  ['DELETE', '/v1/video/vid_abc'],
  ['POST', '/v1/video/vid_abc/redeliver'],
  ['GET', '/v1/clips'],
  ['GET', '/v1/account'],
];

async function expectUnauthorized(app: TestRuntime, authorization: string | undefined, what: string, operations = OPERATIONS) {
  for (const [method, path] of operations) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (authorization !== undefined) headers.Authorization = authorization;
    const res = await fetch(`${app.baseUrl}${path}`, { method, headers, body: method === 'POST' ? '{}' : undefined });
    const context = `${what}: ${method} ${path}`;
    expect(res.status, context).toBe(401);
    expect(res.headers.get('www-authenticate'), context).toBe('Bearer realm="vidbot"');
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(Object.keys(body), context).toEqual(['error']);
    expect(body.error.code, context).toBe('unauthorized');
    expect(body.error.message, context).toMatch(/Bearer/);
  }
}

describe('with the default 300 s authorizer cache', () => {
  let app: TestRuntime;
  beforeAll(async () => {
    app = await startTestRuntime();
  }, 60_000);
  afterAll(async () => app?.stop());

  it('answers 401 to a missing, malformed or unknown key on every operation', async () => {
    await expectUnauthorized(app, undefined, 'no Authorization header');
    await expectUnauthorized(app, '', 'empty header');
    await expectUnauthorized(app, 'Bearer', 'Bearer without a key');
    await expectUnauthorized(app, 'Bearer ', 'Bearer and a space');
    await expectUnauthorized(app, 'Basic xyz', 'Basic scheme');
    await expectUnauthorized(app, `Basic ${Buffer.from(`user:${app.apiKey}`).toString('base64')}`, 'the real key as Basic credentials');
    await expectUnauthorized(app, 'Bearer vb_short', 'too short a key');
    await expectUnauthorized(app, `Bearer ${app.apiKey}x`, 'the real key with a character added');
    await expectUnauthorized(app, `Bearer ${app.apiKey} extra`, 'the real key and more words');
    await expectUnauthorized(app, app.apiKey, 'the key without a scheme');
    await expectUnauthorized(app, `Bearer vb_${'A'.repeat(43)}`, 'a well-formed unknown key');
    // Cached denials must not leak into allowed answers, nor allowed ones into denials.
    expect((await fetch(`${app.baseUrl}/v1/account`, { headers: app.authHeaders })).status).toBe(200);
    await expectUnauthorized(app, `Bearer vb_${'A'.repeat(43)}`, 'the unknown key again');
  }, 60_000);

  it('refuses a key revoked before its first use (no cached decision to outlive the revocation)', async () => {
    const target = keyTarget(app);
    const issued = await createKey(target, { name: 'revoked-before-use' });
    expect(await revokeKey(target, issued.record.keyId)).toBeTruthy();
    await expectUnauthorized(app, `Bearer ${issued.apiKey}`, 'revoked key');
  }, 30_000);

  it("hides another tenant's video: GET, DELETE and redeliver are 404 and change nothing", async () => {
    const receiver = await startReceiver(app.webhookSecret);
    try {
      const owner = client(app);
      const videoId = await owner.createOk({ webhook: receiver.url, create_video: false, clips: [clip('Mine only.')] });
      const finished = await owner.waitForVideo(videoId, (v) => isTerminal(v) && v.webhook.state === 'delivered', 60_000);
      expect(finished.status).toBe('completed');

      const other = await createKey(keyTarget(app), { name: 'other tenant' });
      expect(other.account.tenantId).not.toBe(app.tenantId);
      const stranger = client(app, { Authorization: `Bearer ${other.apiKey}` });
      for (const [method, path] of [
        ['GET', `/v1/video/${videoId}`],
        ['DELETE', `/v1/video/${videoId}`],
        ['POST', `/v1/video/${videoId}/redeliver`],
      ] as const) {
        const res = await stranger.fetch(path, { method });
        expect(res.status, `${method} ${path}`).toBe(404);
        const body = (await res.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('not_found');
        // Indistinguishable from a video that does not exist.
        const missing = await stranger.fetch(path.replace(videoId, 'vid_doesnotexist0'), { method });
        expect(missing.status).toBe(404);
        expect(((await missing.json()) as { error: { message: string } }).error.message).toBe(
          body.error.message.replace(videoId, 'vid_doesnotexist0'),
        );
      }
      const list = (await (await stranger.fetch('/v1/video')).json()) as { videos: unknown[] };
      expect(list.videos).toEqual([]);
      const account = (await (await stranger.fetch('/v1/account')).json()) as { account_id: string; videos: { total: number } };
      expect(account).toMatchObject({ account_id: other.account.tenantId, videos: { total: 0 } });

      // The owner's video is untouched: not deleted, not redelivered.
      const after = await owner.video(videoId);
      expect(after.status).toBe('completed');
      expect(after.webhook.attempts).toHaveLength(1);
      expect(receiver.hitsFor(videoId)).toHaveLength(1);
    } finally {
      await receiver.stop();
    }
  }, 90_000);
});

describe('with the authorizer cache off (authorizerCacheTtlSeconds: 0)', () => {
  let app: TestRuntime;
  beforeAll(async () => {
    app = await startTestRuntime({ authorizerCacheTtlSeconds: 0 });
  }, 60_000);
  afterAll(async () => app?.stop());

  it('refuses a key from the request after its revocation, though it was just used', async () => {
    const target = keyTarget(app);
    const issued = await createKey(target, { name: 'revoked-after-use' });
    const headers = { Authorization: `Bearer ${issued.apiKey}` };
    expect((await fetch(`${app.baseUrl}/v1/account`, { headers })).status).toBe(200);
    expect(await revokeKey(target, issued.record.keyId)).toBeTruthy();
    await expectUnauthorized(app, `Bearer ${issued.apiKey}`, 'key revoked after use');
    // The other keys keep working.
    expect((await fetch(`${app.baseUrl}/v1/account`, { headers: app.authHeaders })).status).toBe(200);
  }, 30_000);
});
