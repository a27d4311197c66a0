/**
 * The local gateway reproduces the stack's usage plan: every authorised method requires the usage-plan key the
 * authorizer returns (403 without one, as API Gateway's apiKeyRequired does), and each key has its own token
 * bucket with the wiring's rate and burst, answering 429 in our error shape before the function is invoked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsagePlanBuckets } from '#infra/local/usage-plan.ts';
import { api } from '#infra/wiring.ts';
import { gatewayFunctions } from '../../fixtures/local/functions.ts';
import { startTestRuntime, type TestRuntime } from '../../support/harness.ts';

describe('UsagePlanBuckets', () => {
  it('allows a burst, then the steady rate, per key', () => {
    // Prepare
    let now = 0;
    const buckets = new UsagePlanBuckets({ rateLimit: 10, burstLimit: 20 }, () => now);
    // Act / Assess: the burst is spent at once...
    expect(Array.from({ length: 20 }, () => buckets.take('a'))).toEqual(Array(20).fill(0));
    expect(buckets.take('a')).toBe(1);
    // ...another key has its own bucket...
    expect(buckets.take('b')).toBe(0);
    // ...and the rate refills it: 100 ms is one request at 10/s, 2 s the whole burst and no more.
    now += 100;
    expect(buckets.take('a')).toBe(0);
    expect(buckets.take('a')).toBe(1);
    now += 60_000;
    expect(Array.from({ length: 21 }, () => buckets.take('a')).filter((wait) => wait === 0)).toHaveLength(20);
  });

  it('says how long to wait at a slow rate', () => {
    const buckets = new UsagePlanBuckets({ rateLimit: 0.25, burstLimit: 1 }, () => 0);
    expect(buckets.take('a')).toBe(0);
    expect(buckets.take('a')).toBe(4);
  });

  it('refuses a plan that would let nothing through', () => {
    expect(() => new UsagePlanBuckets({ rateLimit: 0, burstLimit: 5 })).toThrow(/rate above 0/);
  });
});

describe("the local gateway with the wiring's usage plan", () => {
  let app: TestRuntime;
  const get = (token: string) => fetch(`${app.baseUrl}/v1/echo`, { headers: { Authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    app = await startTestRuntime({ functions: gatewayFunctions, seed: false, concurrency: 1, requestRate: { ...api.usagePlan } });
  }, 60_000);
  afterAll(async () => app?.stop());

  it('throttles a key past its burst with 429 in our error shape, before invoking the function; another key is unaffected', async () => {
    // Prepare: one request so the function's environment is warm and its invocation count known.
    const first = await get('good');
    expect(first.status).toBe(200);
    const before = ((await first.json()) as { invocations: number }).invocations;

    // Act: twice the burst at once with one key, then the other key.
    const burst = await Promise.all(Array.from({ length: api.usagePlan.burstLimit * 2 }, () => get('good')));
    const other = await get('other');

    // Assess
    const ok = burst.filter((r) => r.status === 200);
    const throttled = burst.filter((r) => r.status === 429);
    expect(ok.length + throttled.length).toBe(burst.length);
    // The bucket had burst - 1 tokens left, plus what the rate refilled while the requests were answered.
    expect(throttled.length).toBeGreaterThanOrEqual(api.usagePlan.burstLimit / 2);
    for (const response of throttled) {
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('retry-after')).toBe(api.gatewayResponses.THROTTLED.headers['Retry-After']);
      expect(await response.json()).toEqual({ error: { code: 'rate_limited', message: expect.stringMatching(/Retry-After/) } });
    }
    expect(other.status).toBe(200);

    // Only the allowed requests reached the function.
    await new Promise((resolve) => setTimeout(resolve, 1000 / api.usagePlan.rateLimit + 50));
    const after = await get('good');
    expect(after.status).toBe(200);
    expect(((await after.json()) as { invocations: number }).invocations).toBe(before + ok.length + 2);
  });

  it('refuses with 403 in our error shape a request whose authorizer names no usage-plan key', async () => {
    const response = await get('nousage');
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: 'unauthorized', message: expect.stringMatching(/not enabled/) } });
  });

  it('does not throttle public routes', async () => {
    const responses = await Promise.all(Array.from({ length: api.usagePlan.burstLimit * 2 }, () => fetch(`${app.baseUrl}/health`)));
    expect(responses.map((r) => r.status)).toEqual(Array(responses.length).fill(200));
  });
});
