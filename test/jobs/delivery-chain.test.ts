import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import type { DeliverWebhookOptions, DeliveryResult } from '#commons/webhooks/deliver';
import { issueApiKey } from '#domain/api-keys';
import type { KeyStore } from '#domain/ports';
import type { VideoRecord } from '#domain/video';
import { deliverVideoEvent, type DeliverDeps } from '../../functions/notifier/deliver-job.ts';
import { startDynamo } from '../support/dynamo.ts';
import { FolderObjectStore } from '../support/fakes.ts';

let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let deps: DeliverDeps;
const deliver = vi.fn<(options: DeliverWebhookOptions) => Promise<DeliveryResult>>();
const issued = issueApiKey({ tenantId: 'acct_1', name: 'acme', now: new Date() });
const eventId = 'evt_vid_chain_failed';
const message = { kind: 'deliver' as const, videoId: 'vid_chain', eventId, attempt: 1 };

beforeAll(async () => {
  dynamo = await startDynamo();
  const videos = new DynamoVideoRepository(dynamo.client, 'videos');
  const video: VideoRecord = {
    videoId: 'vid_chain',
    tenantId: 'acct_1',
    keyId: issued.record.keyId,
    status: 'failed',
    createVideo: true,
    webhookUrl: 'https://hooks.test/done',
    clips: [],
    clipResults: {},
    clipCount: 0,
    renderedCount: 0,
    createdAt: '2026-11-22T10:00:00Z',
    updatedAt: '2026-11-22T10:00:00Z',
    completedAt: '2026-11-22T10:00:00Z',
    deadlineAt: 0,
    error: { code: 'render_failed', message: 'boom' },
    delivery: { state: 'pending', attempts: [], eventId },
  };
  await videos.create(video);
  const keys = { findById: async () => issued.record } as unknown as KeyStore;
  deps = { videos, keys, objects: await FolderObjectStore.create(), mode: 'local', now: () => new Date(), deliver };
});
afterAll(() => dynamo.stop());

it('keeps one chain of attempts per event: a re-queued duplicate is dropped, a caller\'s redelivery is its own chain', async () => {
  deliver.mockResolvedValueOnce({ ok: false, statusCode: 500, error: 'HTTP 500', durationMs: 3, retryable: true });
  const first = await deliverVideoEvent(message, { messageId: 'msg-original', receiveCount: 1 }, deps);
  expect(first).toMatchObject({ done: false });
  expect(deliver).toHaveBeenCalledTimes(1);

  // The sweeper's re-queue of the same event (first attempt, another message): dropped without a POST.
  expect(await deliverVideoEvent(message, { messageId: 'msg-requeued', receiveCount: 1 }, deps)).toEqual({ done: true });
  expect(deliver).toHaveBeenCalledTimes(1);

  // The original chain goes on and delivers.
  deliver.mockResolvedValueOnce({ ok: true, statusCode: 204, durationMs: 3, retryable: false });
  expect(await deliverVideoEvent(message, { messageId: 'msg-original', receiveCount: 2 }, deps)).toEqual({ done: true });
  expect(deliver).toHaveBeenCalledTimes(2);
  const delivered = await deps.videos.get('vid_chain');
  expect(delivered?.delivery).toMatchObject({ state: 'delivered', chainId: 'msg-original' });
  expect(delivered?.delivery.attempts.map((a) => a.statusCode)).toEqual([500, 204]);

  // POST /v1/video/{id}/redeliver: a new chain, sent even though the event was delivered.
  deliver.mockResolvedValueOnce({ ok: true, statusCode: 200, durationMs: 3, retryable: false });
  await deliverVideoEvent({ ...message, attempt: 3, redelivery: true }, { messageId: 'msg-redeliver', receiveCount: 1 }, deps);
  expect(deliver).toHaveBeenCalledTimes(3);
  expect((await deps.videos.get('vid_chain'))?.delivery.chainId).toBe('msg-redeliver');
});
