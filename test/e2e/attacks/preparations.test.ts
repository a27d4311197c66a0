/**
 * A bot's preparation decodes a caller's image and runs two models: one account may have at most 3 preparing at
 * once. The next PUT is a 429 with Retry-After, and leaves nothing behind (no upload, no record, no job).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limits } from '#domain/limits';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

const ava = join(import.meta.dirname, '..', '..', '..', 'functions', 'render', 'bots', 'ava');
let app: TestRuntime;
beforeAll(async () => {
  app = await startTestRuntime();
}, 120_000);
afterAll(() => app?.stop());

function drawnBot(name: string) {
  const form = new FormData();
  form.append('name', name);
  for (const [part, file] of [
    ['mouth_closed', 'head-m0-eo.png'],
    ['mouth_open', 'head-m4-eo.png'],
  ] as const)
    form.append(part, new Blob([readFileSync(join(ava, file))], { type: 'text/html' }), file);
  return form;
}

describe('preparations in progress per account', () => {
  it(`refuses a ${limits.maxBotsPreparing + 1}th preparation while ${limits.maxBotsPreparing} are under way, and stores nothing for it`, async () => {
    const put = (uid: string) => fetch(`${app.baseUrl}/v1/bot/${uid}`, { method: 'PUT', headers: app.authHeaders, body: drawnBot(uid) });
    const statuses: number[] = [];
    for (const uid of ['prep-1', 'prep-2', 'prep-3']) statuses.push((await put(uid)).status);
    expect(statuses).toEqual([202, 202, 202]);
    const refused = await put('prep-4');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(limits.botsPreparingRetryAfterSeconds));
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('too_many_bots_in_progress');
    expect((await fetch(`${app.baseUrl}/v1/bot/prep-4`, { headers: app.authHeaders })).status).toBe(404);
    // Replacing one that is preparing takes its place, rather than a new one.
    expect((await put('prep-1')).status).toBe(202);
  });
});

describe('preparations are scheduled fairly between accounts', () => {
  it("B's bot is ready within twice its time alone plus one preparation, while A tries to queue ten", async () => {
    const { createKey } = await import('#infra/scripts/keys.ts');
    const { keyTarget } = await import('../../support/reliability.ts');
    const issued = await createKey(keyTarget(app), { name: 'account B' });
    const keyB = { Authorization: `Bearer ${issued.apiKey}` };
    const put = (headers: Record<string, string>, uid: string) =>
      fetch(`${app.baseUrl}/v1/bot/${uid}`, { method: 'PUT', headers, body: drawnBot(uid) });
    const ready = async (headers: Record<string, string>, uid: string) => {
      for (let i = 0; i < 600; i++) {
        const bot = (await (await fetch(`${app.baseUrl}/v1/bot/${uid}`, { headers })).json()) as { status: string };
        if (bot.status !== 'preparing') return bot.status;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`${uid} still preparing`);
    };
    const timed = async (uid: string) => {
      const started = Date.now();
      expect((await put(keyB, uid)).status).toBe(202);
      expect(await ready(keyB, uid)).toBe('ready');
      return (Date.now() - started) / 1000;
    };
    const alone = await timed('b-alone');
    const statusesOfA: number[] = [];
    for (let i = 0; i < 10; i++) statusesOfA.push((await put(app.authHeaders, `a-flood-${i}`)).status);
    const busy = await timed('b-busy');
    const bound = 3 * alone;
    console.log(
      `fairness (preparations): B alone ${alone.toFixed(1)} s, B while A floods ${busy.toFixed(1)} s (A: ${statusesOfA.filter((s) => s === 202).length} accepted, ${statusesOfA.filter((s) => s === 429).length} refused)`,
    );
    expect(statusesOfA.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(busy).toBeLessThanOrEqual(bound);
  }, 180_000);
});
