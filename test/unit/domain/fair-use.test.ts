import { describe, expect, it } from 'vitest';
import { TooManyVideosInProgressError } from '#domain/errors';
import { ensureRoomForAnotherVideo, parseVideosInProgressLimit, videosInProgressLimit, videosInProgressRoom } from '#domain/fair-use';
import { limits } from '#domain/limits';
import type { Account } from '#domain/ports';

const now = new Date('2026-11-22T10:00:00Z');

/** In-memory ports: the account (if any) and a fixed number of videos in progress; records what was asked. */
function ports(inProgress: number, account?: Partial<Account>) {
  const asked: { since: string; upTo: number }[] = [];
  return {
    asked,
    deps: {
      accounts: { get: async (tenantId: string) => (account ? { tenantId, name: 'acme', createdAt: now.toISOString(), ...account } : undefined) },
      videos: {
        countInProgress: async (_tenantId: string, since: string, upTo: number) => {
          asked.push({ since, upTo });
          return inProgress;
        },
      },
      now: () => now,
    },
  };
}

describe('the limit of videos in progress', () => {
  it(`defaults to ${limits.defaultMaxVideosInProgress} for an account without its own limit (or without a record)`, async () => {
    expect(limits.defaultMaxVideosInProgress).toBe(20);
    const accounts = { get: async () => undefined };
    const acme = { tenantId: 'acct_1', name: 'acme', createdAt: now.toISOString() };
    expect(await videosInProgressLimit(undefined, accounts)).toBe(20);
    expect(await videosInProgressLimit(acme, accounts)).toBe(20);
    expect(await videosInProgressLimit({ ...acme, maxVideosInProgress: 50 }, accounts)).toBe(50);
  });

  it('lets the 20th video in and refuses the 21st, with a retry delay', async () => {
    // Prepare
    const below = ports(19);
    const at = ports(20);
    // Act / Assess
    await expect(ensureRoomForAnotherVideo('acct_1', below.deps)).resolves.toBeUndefined();
    const refusal = await ensureRoomForAnotherVideo('acct_1', at.deps).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(TooManyVideosInProgressError);
    expect(refusal).toMatchObject({ limit: 20, retryAfterSeconds: limits.videosInProgressRetryAfterSeconds });
  });

  it("follows the account's own limit, higher or lower", async () => {
    await expect(ensureRoomForAnotherVideo('acct_1', ports(20, { maxVideosInProgress: 50 }).deps)).resolves.toBeUndefined();
    await expect(ensureRoomForAnotherVideo('acct_1', ports(2, { maxVideosInProgress: 2 }).deps)).rejects.toMatchObject({ limit: 2 });
  });

  it('refuses every video of an account whose limit is 0, without counting', async () => {
    const suspended = ports(0, { maxVideosInProgress: 0 });
    await expect(ensureRoomForAnotherVideo('acct_1', suspended.deps)).rejects.toBeInstanceOf(TooManyVideosInProgressError);
    expect(suspended.asked).toEqual([]);
  });

  it('counts only videos created within the last deadline, and no further than the limit', async () => {
    const { deps, asked } = ports(0, { maxVideosInProgress: 7 });
    await ensureRoomForAnotherVideo('acct_1', deps);
    expect(asked).toEqual([{ since: new Date(now.getTime() - limits.videoDeadlineSeconds * 1000).toISOString(), upTo: 7 }]);
  });

  it.each([
    ['50', 50],
    ['0', 0],
    [' 10000 ', 10000],
  ])("reads the operator's limit %j", (typed, limit) => {
    expect(parseVideosInProgressLimit(typed)).toBe(limit);
  });

  it.each(['', 'lots', '-1', '2.5', '10001', '1e9'])('refuses the limit %j', (typed) => {
    expect(() => parseVideosInProgressLimit(typed)).toThrow(/whole number from 0 to 10000/);
  });
});

describe("a test account's room", () => {
  const accounts: Record<string, Account> = {
    acct_live: { tenantId: 'acct_live', name: 'acme', createdAt: now.toISOString(), maxVideosInProgress: 5, testTenantId: 'acct_test' },
    acct_test: {
      tenantId: 'acct_test',
      name: 'acme (test)',
      createdAt: now.toISOString(),
      test: true,
      liveTenantId: 'acct_live',
      maxVideosInProgress: 99,
    },
  };
  const deps = (inProgress: Record<string, number>) => ({
    accounts: { get: async (tenantId: string) => accounts[tenantId] },
    videos: { countInProgress: async (tenantId: string, _since: string, upTo: number) => Math.min(inProgress[tenantId] ?? 0, upTo) },
    now: () => now,
  });

  it("is what the live account's videos leave of the live limit: test keys never double it", async () => {
    await expect(videosInProgressRoom('acct_test', deps({ acct_live: 3, acct_test: 1 }))).resolves.toEqual({ limit: 5, inProgress: 4 });
    await expect(ensureRoomForAnotherVideo('acct_test', deps({ acct_live: 3, acct_test: 1 }))).resolves.toBeUndefined();
    await expect(ensureRoomForAnotherVideo('acct_test', deps({ acct_live: 3, acct_test: 2 }))).rejects.toMatchObject({ limit: 5 });
    await expect(ensureRoomForAnotherVideo('acct_test', deps({ acct_live: 5, acct_test: 0 }))).rejects.toMatchObject({ limit: 5 });
  });

  it('never takes room from a live video: the live account counts its own videos only', async () => {
    await expect(videosInProgressRoom('acct_live', deps({ acct_live: 4, acct_test: 5 }))).resolves.toEqual({ limit: 5, inProgress: 4 });
    await expect(ensureRoomForAnotherVideo('acct_live', deps({ acct_live: 4, acct_test: 5 }))).resolves.toBeUndefined();
  });
});
