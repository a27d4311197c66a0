/**
 * In the local runtime, callers' URLs (backgrounds, webhooks, bot images) may reach loopback only on the ports the
 * runtime allows — its gateway and the servers a test or the demo names — never its own data stores; and a
 * refused port is refused before any connection, so an open port and a closed one answer alike (no port scan).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { freePort } from '../../support/reliability.ts';

let app: TestRuntime;
beforeAll(async () => {
  app = await startTestRuntime();
}, 120_000);
afterAll(() => app?.stop());

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${app.baseUrl}${path}`, { ...init, headers: { ...app.authHeaders, ...(init.headers as Record<string, string>) } });
const createWith = (clip: Record<string, unknown>, webhook = `${app.baseUrl}/v1/inbox/${app.tenantId}`) =>
  api('/v1/bot', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook, clips: [{ bot_uid: 'bot_ava', text: 'Hi.', ...clip }] }),
  });

describe('the local address guard', () => {
  it("refuses the runtime's own data stores as a background or a webhook", async () => {
    const s3 = new URL(app.runtime.endpoints.s3);
    const dynamo = new URL(app.runtime.endpoints.dynamodb);
    const background = await createWith({ background: `http://127.0.0.1:${s3.port}/${app.runtime.names.bucket}/outputs/x.mp4` });
    expect(background.status).toBe(400);
    expect(((await background.json()) as any).error.details[0].path).toBe('clips[0].background');
    const webhook = await createWith({}, `http://localhost:${dynamo.port}/`);
    expect(webhook.status).toBe(400);
    expect(((await webhook.json()) as any).error.details[0].path).toBe('webhook');
  });

  it('answers an open and a closed port that are not allowed alike', async () => {
    const open = new URL(app.runtime.endpoints.sqs).port;
    const closed = await freePort();
    const answers = await Promise.all(
      [open, closed].map(async (port) => {
        const response = await api('/v1/bot/probe', {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Probe', image_url: `http://127.0.0.1:${port}/me.jpg` }),
        });
        return { status: response.status, body: await response.text() };
      }),
    );
    expect(answers[0]!.status).toBe(400);
    expect(answers[0]).toEqual(answers[1]);
  });

  it('still reaches the gateway itself (a webhook inbox address)', async () => {
    const created = await createWith({});
    expect(created.status).toBe(202);
  });
});
