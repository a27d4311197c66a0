/**
 * The webhook inbox and the console page through the local runtime's gateway: a signed delivery is kept and listed
 * newest first; a wrong, missing, stale or foreign signature is refused with 401 and stores nothing; a video's own
 * webhook event, sent by the notifier to the inbox, arrives verified.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '#commons/webhooks/signature';
import { generateWebhookSecret } from '#domain/api-keys';
import { startTestRuntime, type TestRuntime } from '../support/harness.ts';

let app: TestRuntime;
beforeAll(async () => {
  app = await startTestRuntime();
});
afterAll(async () => {
  await app?.stop();
});

const inboxPath = () => `${app.baseUrl}/v1/inbox/${app.tenantId}`;
const listInbox = async () => {
  const res = await fetch(`${app.baseUrl}/v1/inbox`, { headers: app.authHeaders });
  expect(res.status).toBe(200);
  return (await res.json()) as { inbox_url: string; events: { webhook_id: string; type: string; signature_verified: boolean; event: any }[] };
};
function signed(payload: string, options: { id?: string; secret?: string; at?: Date } = {}) {
  return signWebhook({
    msgId: options.id ?? `evt_${Math.random().toString(36).slice(2)}`,
    timestamp: options.at ?? new Date(),
    payload,
    secrets: [options.secret ?? app.webhookSecret],
  });
}
const post = (headers: Record<string, string>, body: string, url = inboxPath()) => fetch(url, { method: 'POST', headers, body });

describe('webhook inbox', () => {
  it('keeps a delivery signed with the account secret, without a bearer key, and lists it newest first', async () => {
    const first = JSON.stringify({ type: 'video.completed', data: { video_id: 'vid_one' } });
    const second = JSON.stringify({ type: 'video.failed', data: { video_id: 'vid_two' } });
    const a = await post(signed(first, { id: 'evt_one', at: new Date(Date.now() - 2000) }), first);
    expect(a.status, await a.clone().text()).toBe(200);
    expect(await a.json()).toMatchObject({ webhook_id: 'evt_one', signature_verified: true });
    expect((await post(signed(second, { id: 'evt_two' }), second)).status).toBe(200);

    const inbox = await listInbox();
    expect(inbox.inbox_url).toBe(inboxPath());
    expect(inbox.events.map((e) => e.webhook_id)).toEqual(['evt_two', 'evt_one']);
    expect(inbox.events[0]).toMatchObject({ type: 'video.failed', signature_verified: true, event: { data: { video_id: 'vid_two' } } });
  });

  it('stores a replayed delivery once (same id and signed timestamp), and a redelivery signed anew again', async () => {
    const body = JSON.stringify({ type: 'video.completed', data: { video_id: 'vid_replayed' } });
    const headers = signed(body, { id: 'evt_replayed' });
    const before = (await listInbox()).events.length;
    for (let i = 0; i < 5; i++) expect((await post(headers, body)).status).toBe(200);
    expect((await listInbox()).events.filter((e) => e.webhook_id === 'evt_replayed')).toHaveLength(1);
    // The notifier's redelivery of the same event carries a new timestamp: an entry of its own.
    expect((await post(signed(body, { id: 'evt_replayed', at: new Date(Date.now() + 1500) }), body)).status).toBe(200);
    expect((await listInbox()).events.filter((e) => e.webhook_id === 'evt_replayed')).toHaveLength(2);
    expect((await listInbox()).events.length).toBe(before + 2);
  });

  it('refuses anything that does not verify with 401 in the error shape, and stores nothing', async () => {
    const before = (await listInbox()).events.length;
    const body = JSON.stringify({ type: 'video.completed', data: {} });
    const refusals = [
      post({ 'content-type': 'application/json' }, body), // no signature at all
      post(signed(body, { secret: generateWebhookSecret() }), body), // another secret
      post(signed(body), body.replace('completed', 'failed')), // body changed after signing
      post(signed(body, { at: new Date(Date.now() - 10 * 60_000) }), body), // stale timestamp (replay)
      post(signed(body), body, `${app.baseUrl}/v1/inbox/acct_nobody`), // an account that does not exist
      post(signed(body), body, `${app.baseUrl}/v1/inbox/not-an-account`),
    ];
    for (const res of await Promise.all(refusals)) {
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: 'invalid_signature', message: expect.stringContaining('could not be verified') } });
    }
    expect((await listInbox()).events.length).toBe(before);
  });

  it('lists only with a key', async () => {
    expect((await fetch(`${app.baseUrl}/v1/inbox`)).status).toBe(401);
  });

  it("receives the notifier's own event for a video whose webhook is the inbox", async () => {
    const res = await fetch(`${app.baseUrl}/v1/bot`, {
      method: 'POST',
      headers: { ...app.authHeaders, 'Content-Type': 'application/json' },
      body: JSON.stringify({ webhook: inboxPath(), create_video: false, clips: [{ bot_uid: 'bot_otto', text: 'Inbox, please.' }] }),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const { video_id } = (await res.json()) as { video_id: string };
    const deadline = Date.now() + 60_000;
    let event: { webhook_id: string; type: string; signature_verified: boolean } | undefined;
    while (!event && Date.now() < deadline) {
      event = (await listInbox()).events.find((e) => e.webhook_id.includes(video_id));
      if (!event) await new Promise((r) => setTimeout(r, 500));
    }
    expect(event).toMatchObject({ type: 'video.completed', signature_verified: true });
    const video = (await (await fetch(`${app.baseUrl}/v1/video/${video_id}`, { headers: app.authHeaders })).json()) as any;
    expect(video.webhook.state).toBe('delivered');
    expect(video.webhook.attempts[0].status_code).toBe(200);
  }, 90_000);
});

describe('console page', () => {
  it('is served at / without a key, as HTML with a policy that allows only its own inline code', async () => {
    const res = await fetch(`${app.baseUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    // Requests go to the API and the media bucket (here the S3 emulator), nowhere else: the API key is in sessionStorage.
    expect(csp.split('; ')).toContain(`connect-src 'self' ${new URL(app.runtime.endpoints.s3).origin}`);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/); // nothing from elsewhere
  });
});
