/**
 * A batch create refused because the account already runs its 5 batches, sent again and again with a 2 MB CSV: each
 * refusal stored the batch's input (its template and rows) in the bucket, where no rule expires it and nothing
 * removed it, so one key could leave megabytes a second for good behind its 429s.
 */
import { describe, expect, it } from 'vitest';
import { readBatchRows } from '#domain/batch-rows';
import { type StartBatchDeps, startBatch } from '#domain/batches';
import { TooManyBatchesInProgressError } from '#domain/errors';
import type { BatchTickMessage } from '#domain/messages';
import type { UploadStore } from '#domain/ports';
import { parseTemplate, saveTemplate } from '#domain/templates';
import { RecordingQueue } from '../../support/fakes.ts';

const clock = new Date('2026-11-27T16:00:00Z');
const caller = { tenantId: 'acct_full', keyId: 'key_full', baseUrl: 'https://api.test' };

describe('a batch refused for too many batches running', () => {
  it('is 429 and leaves no input object, no record and no message', async () => {
    const stored = new Map<string, string>();
    const records = new Set<string>();
    const queue = new RecordingQueue<BatchTickMessage>();
    const deps: StartBatchDeps = {
      batches: {
        create: async (batch) => {
          records.add(batch.batchId);
        },
        delete: async (_tenantId, batchId) => {
          records.delete(batchId);
        },
        claimRunningSlot: async () => false,
        countRunning: async () => 0,
      },
      accounts: { get: async () => ({ tenantId: caller.tenantId, name: 'full', createdAt: clock.toISOString() }) },
      objects: {
        putBytes: async (key: string, body: Uint8Array | string) => {
          stored.set(key, String(body));
        },
      },
      recordings: { uploads: {} as UploadStore, objects: { head: async () => undefined } },
      batchQueue: queue,
      now: () => clock,
      newBatchId: () => 'bat_refused0001',
    };
    const template = await saveTemplate(
      caller.tenantId,
      parseTemplate('hello', { name: 'Hello', create_video: false, clips: [{ bot_uid: 'bot_ava', text: 'Hi {{first_name}}.' }] }),
      { templates: { get: async () => undefined, put: async () => {} } as never, now: () => clock },
    );
    const rows = readBatchRows(Array.from({ length: 100 }, (_, i) => ({ first_name: `Ada ${i}` })));
    const refused = await startBatch(template, { webhookUrl: 'https://hooks.test/b', notifyEach: false, rows }, caller, deps).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(TooManyBatchesInProgressError);
    expect({ objects: [...stored.keys()], records: [...records], messages: queue.sent.length }).toEqual({ objects: [], records: [], messages: 0 });
  });
});
