import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

/** The real wiring and handlers through the harness: the smoke test other end-to-end tests build on. */
let app: TestRuntime;
beforeAll(async () => {
  app = await startTestRuntime();
}, 60_000);
afterAll(async () => app?.stop());

describe('local runtime with the real wiring', () => {
  it('answers /health without a key once ready', async () => {
    const response = await fetch(`${app.baseUrl}/health`);
    expect(response.status).toBe(200);
  }, 30_000);

  it('lists the seeded bots for the dev key (POST /v1/bot/) and refuses an unknown key', async () => {
    const listed = await fetch(`${app.baseUrl}/v1/bot/`, { method: 'POST', headers: app.authHeaders });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { bots: { uid: string }[] };
    expect(body.bots.map((b) => b.uid).sort()).toEqual(['bot_ava', 'bot_leo', 'bot_maya', 'bot_otto']);

    const refused = await fetch(`${app.baseUrl}/v1/bot/`, { method: 'POST', headers: { Authorization: `Bearer vb_${'x'.repeat(43)}` } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
  }, 30_000);
});
