/**
 * A test key must not double the limit of batches running: its test account's batches run only in the room its live
 * account's leave, and a live batch is never refused because of test ones. On the real DynamoDB adapter (dynalite),
 * whose slots decide the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoBatchStore } from '#commons/aws/dynamo-batches';
import { DynamoUploadStore } from '#commons/aws/dynamo-uploads';
import { readBatchRows } from '#domain/batch-rows';
import { type StartBatchDeps, startBatch } from '#domain/batches';
import { TooManyBatchesInProgressError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { BatchTickMessage } from '#domain/messages';
import { parseTemplate, saveTemplate } from '#domain/templates';
import { startDynamo } from '../../support/dynamo.ts';
import { FolderObjectStore, linkedAccounts, RecordingQueue } from '../../support/fakes.ts';

let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let batches: DynamoBatchStore;
let objects: FolderObjectStore;
const clock = new Date('2026-11-27T16:00:00Z');
let counter = 0;
let pairs = 0;

beforeAll(async () => {
  dynamo = await startDynamo();
  batches = new DynamoBatchStore(dynamo.client, 'batches');
  objects = await FolderObjectStore.create(() => clock);
});
afterAll(() => dynamo.stop());

/** A live account and its test account, each with a template, and a way to start a one-row batch as either. */
async function accountPair() {
  const live = `acct_live${++pairs}`;
  const test = `acct_test${pairs}`;
  const deps: StartBatchDeps = {
    batches,
    accounts: linkedAccounts(live, test),
    objects,
    recordings: { uploads: new DynamoUploadStore(dynamo.client, 'uploads'), objects },
    batchQueue: new RecordingQueue<BatchTickMessage>(),
    now: () => clock,
    newBatchId: () => `bat_pair${String(++counter).padStart(4, '0')}`,
  };
  const command = parseTemplate('hello', { name: 'Hello', create_video: false, clips: [{ bot_uid: 'bot_ava', text: 'Hi {{first_name}}.' }] });
  const store = { templates: { get: async () => undefined, put: async () => {} } as never, now: () => clock };
  const templates = { [live]: await saveTemplate(live, command, store), [test]: await saveTemplate(test, command, store) };
  const start = (tenantId: string) =>
    startBatch(
      templates[tenantId]!,
      { webhookUrl: 'https://hooks.test/b', notifyEach: false, rows: readBatchRows([{ first_name: 'Ada' }]) },
      { tenantId, keyId: `key_${tenantId}`, baseUrl: 'https://api.test' },
      deps,
    );
  return { live, test, start };
}

const startMany = async (start: () => Promise<{ batchId: string }>, count: number) => {
  const started: string[] = [];
  for (let i = 0; i < count; i++) started.push((await start()).batchId);
  return started;
};

describe("a test key's batches running", () => {
  it(`share the live account's ${limits.maxBatchesInProgress}: the test account runs only in the room live batches leave`, async () => {
    const { live, test, start } = await accountPair();
    await startMany(() => start(live), limits.maxBatchesInProgress - 2);
    await startMany(() => start(test), 2);
    await expect(start(test)).rejects.toBeInstanceOf(TooManyBatchesInProgressError);
  });

  it('never refuse a live batch: the live account counts its own', async () => {
    const { live, test, start } = await accountPair();
    await startMany(() => start(test), limits.maxBatchesInProgress);
    await startMany(() => start(live), limits.maxBatchesInProgress);
    await expect(start(live)).rejects.toBeInstanceOf(TooManyBatchesInProgressError);
    await expect(start(test)).rejects.toBeInstanceOf(TooManyBatchesInProgressError);
  });

  it("count wherever their slots are: a test batch's freed slot is not room while live batches take the rest", async () => {
    const { live, test, start } = await accountPair();
    const [first] = await startMany(() => start(test), limits.maxBatchesInProgress);
    const settled = (await batches.get(test, first!))!;
    expect(await batches.save({ ...settled, status: 'completed', version: settled.version + 1 }, settled.version)).toBe(true);
    await startMany(() => start(live), 1);
    await expect(start(test)).rejects.toBeInstanceOf(TooManyBatchesInProgressError);
  });
});
