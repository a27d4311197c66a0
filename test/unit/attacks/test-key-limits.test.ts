/**
 * A test key must not double an account's limits: its test account works in the room its live account leaves under
 * each per-account limit (bots preparing at once, pending uploads), and the live account is never refused because
 * of test work. Without the shared count, a test key gave the attacker a second set of every limit.
 */
import { describe, expect, it } from 'vitest';
import type { AccountBot } from '#domain/account-bot';
import { parsePutBot } from '#domain/account-bot-request';
import { type AccountBotDeps, putAccountBot } from '#domain/account-bots';
import { TooManyBotsInProgressError, TooManyPendingUploadsError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { UploadStore } from '#domain/ports';
import { parseUploadRequest, startUpload, type Upload } from '#domain/uploads';
import { linkedAccounts } from '../../support/fakes.ts';
import { builtInLookAsPrepared } from '../../support/looks.ts';

const LIVE = 'acct_live';
const TEST = 'acct_test';
const accounts = linkedAccounts(LIVE, TEST);
const clock = new Date('2026-11-27T16:00:00Z');
const PNG = builtInLookAsPrepared('ava').files.get('head-m0-eo.png')!;
let ids = 0;

function botDeps(): AccountBotDeps {
  const records = new Map<string, AccountBot>();
  return {
    accountBots: {
      get: async (tenantId: string, uid: string) => records.get(`${tenantId}/${uid}`),
      list: async (tenantId: string) => [...records.values()].filter((bot) => bot.tenantId === tenantId),
      put: async (bot: AccountBot) => (records.set(`${bot.tenantId}/${bot.uid}`, bot), true),
    },
    accounts,
    objects: { putBytes: async () => {}, delete: async () => {} },
    prepareQueue: { send: async () => {}, sendBatch: async () => {} },
    footageQueue: { send: async () => {}, sendBatch: async () => {} },
    now: () => clock,
    newVersion: () => `v_${++ids}`,
  } as unknown as AccountBotDeps;
}

/** PUTs a new bot (it is preparing until its job settles, which never runs here). */
const putBot = (tenantId: string, deps: AccountBotDeps) =>
  putAccountBot(
    parsePutBot(`bot-${++ids}`, { name: 'Mine' }, { image: { bytes: PNG, contentType: 'image/png' } }, { polly: false }),
    { tenantId, keyId: `key_${tenantId}`, ...(tenantId === TEST && { test: true as const }) },
    deps,
  );

describe("a test key's bots preparing", () => {
  it(`share the live account's ${limits.maxBotsPreparing}: the test account prepares only in the room live bots leave`, async () => {
    const deps = botDeps();
    for (let i = 1; i < limits.maxBotsPreparing; i++) await putBot(LIVE, deps);
    await putBot(TEST, deps);
    await expect(putBot(TEST, deps)).rejects.toBeInstanceOf(TooManyBotsInProgressError);
  });

  it('never refuse a live bot: the live account counts its own', async () => {
    const deps = botDeps();
    for (let i = 0; i < limits.maxBotsPreparing; i++) await putBot(TEST, deps);
    for (let i = 0; i < limits.maxBotsPreparing; i++) await putBot(LIVE, deps);
    await expect(putBot(LIVE, deps)).rejects.toBeInstanceOf(TooManyBotsInProgressError);
  });
});

class MemoryUploads implements UploadStore {
  readonly items: Upload[] = [];
  async put(upload: Upload) {
    this.items.push(upload);
  }
  async get() {
    return undefined;
  }
  async markUsed() {
    return false;
  }
  async release() {}
  async countPending(tenantId: string, nowSeconds: number) {
    return this.items.filter((u) => u.tenantId === tenantId && u.expiresAt > nowSeconds && !u.usedBy).length;
  }
}

function uploadDeps() {
  return {
    uploads: new MemoryUploads(),
    accounts,
    objects: { presignPut: async (key: string) => ({ url: `https://bucket.test/${key}`, expiresAt: clock.toISOString() }) },
    now: () => clock,
    newUploadId: () => `upl_${String(++ids).padStart(16, '0')}`,
  };
}

const askUpload = (tenantId: string, deps: ReturnType<typeof uploadDeps>) =>
  startUpload(tenantId, parseUploadRequest({ content_type: 'audio/mpeg', size: 1000 }), deps);

describe("a test key's pending uploads", () => {
  it(`share the live account's ${limits.maxPendingUploads}: the test account asks only in the room live uploads leave`, async () => {
    const deps = uploadDeps();
    for (let i = 5; i < limits.maxPendingUploads; i++) await askUpload(LIVE, deps);
    for (let i = 0; i < 5; i++) await askUpload(TEST, deps);
    await expect(askUpload(TEST, deps)).rejects.toBeInstanceOf(TooManyPendingUploadsError);
  });

  it('never refuse a live upload: the live account counts its own', async () => {
    const deps = uploadDeps();
    for (let i = 0; i < limits.maxPendingUploads; i++) await askUpload(TEST, deps);
    for (let i = 0; i < limits.maxPendingUploads; i++) await askUpload(LIVE, deps);
    await expect(askUpload(LIVE, deps)).rejects.toBeInstanceOf(TooManyPendingUploadsError);
  });
});
