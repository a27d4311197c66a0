/**
 * Concurrent batch creates against the limit of batches running: a count read before the write let six (or all of
 * them) through at once. The slot is taken by a conditional write on the real DynamoDB adapter (dynalite), so
 * exactly the limit pass, whatever the race; a settled batch's slot is taken again, and no listing shows a slot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoBatchStore } from '#commons/aws/dynamo-batches';
import { DynamoAccountStore } from '#commons/aws/dynamo-stores';
import { DynamoUploadStore } from '#commons/aws/dynamo-uploads';
import { readBatchRows } from '#domain/batch-rows';
import { type StartBatchDeps, startBatch } from '#domain/batches';
import { TooManyBatchesInProgressError } from '#domain/errors';
import { limits } from '#domain/limits';
import type { BatchTickMessage } from '#domain/messages';
import { parseTemplate, saveTemplate, type TemplateRecord } from '#domain/templates';
import { startDynamo } from '../../support/dynamo.ts';
import { FolderObjectStore, RecordingQueue } from '../../support/fakes.ts';

let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let batches: DynamoBatchStore;
let deps: StartBatchDeps;
let template: TemplateRecord;
const clock = new Date('2026-11-24T10:00:00Z');
const caller = { tenantId: 'acct_racing', keyId: 'key_racing', baseUrl: 'https://api.test' };
let counter = 0;

beforeAll(async () => {
  dynamo = await startDynamo();
  batches = new DynamoBatchStore(dynamo.client, 'batches');
  const accounts = new DynamoAccountStore(dynamo.client, 'accounts');
  await accounts.put({ tenantId: caller.tenantId, name: 'racing creates', createdAt: clock.toISOString() });
  const objects = await FolderObjectStore.create(() => clock);
  deps = {
    batches,
    accounts,
    objects,
    recordings: { uploads: new DynamoUploadStore(dynamo.client, 'uploads'), objects },
    batchQueue: new RecordingQueue<BatchTickMessage>(),
    now: () => clock,
    newBatchId: () => `bat_race${String(++counter).padStart(3, '0')}`,
  };
  const command = parseTemplate('hello', { name: 'Hello', create_video: false, clips: [{ bot_uid: 'bot_ava', text: 'Hi {{first_name}}.' }] });
  template = await saveTemplate(caller.tenantId, command, {
    templates: { get: async () => undefined, put: async () => {} } as never,
    now: () => clock,
  });
});
afterAll(() => dynamo.stop());

const create = () =>
  startBatch(template, { webhookUrl: 'https://hooks.test/b', notifyEach: false, rows: readBatchRows([{ first_name: 'Ada' }]) }, caller, deps);

describe('the limit of batches running, raced', () => {
  it(`lets exactly ${limits.maxBatchesInProgress} of 12 concurrent creates through; the others are refused and leave nothing`, async () => {
    const results = await Promise.allSettled(Array.from({ length: 12 }, create));
    const made = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.batchId] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(made).toHaveLength(limits.maxBatchesInProgress);
    expect(refused).toHaveLength(12 - limits.maxBatchesInProgress);
    for (const reason of refused) expect(reason).toBeInstanceOf(TooManyBatchesInProgressError);
    const listed = await batches.list(caller.tenantId, { limit: 100 });
    expect(listed.items.map((b) => b.batchId).sort()).toEqual(made.sort());
  });

  it('gives the slot of a settled batch to the next create, and only one of two racing for it', async () => {
    const [settled] = (await batches.list(caller.tenantId, { limit: 100 })).items;
    expect(await batches.save({ ...settled!, status: 'completed', version: settled!.version + 1 }, settled!.version)).toBe(true);
    const results = await Promise.allSettled([create(), create()]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    await expect(create()).rejects.toBeInstanceOf(TooManyBatchesInProgressError);
  });
});
