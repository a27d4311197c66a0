/**
 * Property-based fuzzing of create (POST /v1/bot and POST /v1/create_video) through the gateway: random and
 * malformed bodies, wrong content types, huge fields, invalid UTF-8, prototype keys at any depth, wrong clip
 * types. Every generated request is invalid by construction, so every answer must be a 4xx in the error shape
 * {"error":{"code","message"}} (never a 5xx, never a 202), and no video may be recorded.
 *
 * Raw invalid UTF-8 in a JSON or urlencoded body reaches the handler as bytes because the wiring declares
 * those types binary media types (API Gateway would otherwise decode them as text, replacing bad bytes with
 * U+FFFD); percent-encoded form bytes are decoded strictly. All are covered.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowLoopbackPort } from '#infra/local/loopback.ts';
import { categories, type FuzzRequest } from '../../support/create-fuzz-requests.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';
import { client } from '../../support/reliability.ts';

let app: TestRuntime;
beforeAll(async () => {
  allowLoopbackPort(9); // the port of WEBHOOK in create-fuzz-requests.ts: nothing listens on it, and nothing needs to
  app = await startTestRuntime();
}, 60_000);
afterAll(async () => app?.stop());

async function send(request: FuzzRequest) {
  const headers: Record<string, string> = { ...app.authHeaders };
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  // A Uint8Array body: fetch adds no content type of its own.
  const res = await fetch(`${app.baseUrl}${request.path}`, { method: 'POST', headers, body: new Uint8Array(request.body) });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

function assertRefused(request: FuzzRequest, res: Awaited<ReturnType<typeof send>>) {
  const context = `${request.category}: ${request.path} ${request.contentType ?? '(no content type)'} ${request.body.subarray(0, 300).toString('utf8')}… → ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeGreaterThanOrEqual(400);
  expect(res.status, context).toBeLessThan(500);
  if (request.expected !== '4xx') expect(res.status, context).toBe(request.expected);
  expect(res.contentType, context).toMatch(/^application\/json/);
  const body = JSON.parse(res.text) as { error?: { code?: unknown; message?: unknown } };
  expect(Object.keys(body), context).toEqual(['error']);
  expect(typeof body.error?.code === 'string' && body.error.code.length > 0, context).toBe(true);
  expect(typeof body.error?.message === 'string' && body.error.message.length > 0, context).toBe(true);
}

describe('fuzzing create through the API', () => {
  it('answers every invalid request with a 4xx in the error shape and records nothing', async () => {
    const api = client(app);
    const totalBefore = await api.videoTotal();
    const seen = new Map<string, Map<number, number>>();
    const anyInvalid = fc.oneof(...Object.values(categories));
    await fc.assert(
      fc.asyncProperty(anyInvalid, async (request) => {
        const res = await send(request);
        const byStatus = seen.get(request.category) ?? new Map<number, number>();
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
        seen.set(request.category, byStatus);
        assertRefused(request, res);
      }),
      { numRuns: 1000 },
    );
    // Each category at least a few times, so a new category cannot silently drop out.
    expect(seen.size).toBeGreaterThanOrEqual(Object.keys(categories).length);

    // Past API Gateway's own 10 MiB limit: the gateway's 413, same shape.
    const overGateway: FuzzRequest = {
      category: 'over 10 MiB',
      path: '/v1/bot',
      contentType: 'application/json',
      body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20),
      expected: 413,
    };
    assertRefused(overGateway, await send(overGateway));

    expect(await api.videoTotal()).toBe(totalBefore);
    const list = (await (await api.fetch('/v1/video')).json()) as { videos: unknown[] };
    expect(list.videos).toEqual([]);
    if (process.env.VIDBOT_FUZZ_SUMMARY)
      console.log([...seen].map(([category, statuses]) => `${category}: ${[...statuses].map(([s, n]) => `${s}x${n}`).join(' ')}`).join('\n'));
  }, 120_000);
});
