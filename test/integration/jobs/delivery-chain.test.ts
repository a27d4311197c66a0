import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DynamoAccountBotStore } from '#commons/aws/dynamo-account-bots';
import { DynamoBatchStore } from '#commons/aws/dynamo-batches';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import type { AccountBot } from '#domain/account-bot';
import { settledDelivery } from '#domain/account-bot-outcomes';
import { redeliverBotEvent } from '#domain/account-bots';
import { issueApiKey } from '#domain/api-keys';
import type { BatchRecord } from '#domain/batches';
import { ConflictError, ForbiddenError, NotFoundError } from '#domain/errors';
import type { DeliverBotMessage } from '#domain/messages';
import type { KeyStore } from '#domain/ports';
import { DEFAULT_SHAPE } from '#domain/shape';
import type { VideoRecord } from '#domain/video';
import type { DeliverWebhookOptions, DeliveryResult } from '#functions/notifier/deliver.ts';
import { type DeliveryDeps, deliverEvent } from '#functions/notifier/delivery-job.ts';
import { batchEvents } from '#functions/notifier/owners/batch-events.ts';
import { botEvents } from '#functions/notifier/owners/bot-events.ts';
import { videoEvents } from '#functions/notifier/owners/video-events.ts';
import { startDynamo } from '../../support/dynamo.ts';
import { FolderObjectStore, RecordingQueue } from '../../support/fakes.ts';

let dynamo: Awaited<ReturnType<typeof startDynamo>>;
let videos: DynamoVideoRepository;
let bots: DynamoAccountBotStore;
let deps: DeliveryDeps;
const deliver = vi.fn<(options: DeliverWebhookOptions) => Promise<DeliveryResult>>();
const issued = issueApiKey({ tenantId: 'acct_1', name: 'acme', now: new Date() });
const eventId = 'evt_vid_chain_failed';
const message = { kind: 'deliver' as const, tenantId: 'acct_1', videoId: 'vid_chain', eventId, attempt: 1 };

beforeAll(async () => {
  dynamo = await startDynamo();
  videos = new DynamoVideoRepository(dynamo.client, 'videos');
  bots = new DynamoAccountBotStore(dynamo.client, 'accountBots');
  const video: VideoRecord = {
    videoId: 'vid_chain',
    tenantId: 'acct_1',
    keyId: issued.record.keyId,
    status: 'failed',
    createVideo: true,
    shape: DEFAULT_SHAPE,
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
  const objects = await FolderObjectStore.create();
  const owners = {
    deliver: videoEvents({ videos, objects }),
    'deliver-bot': botEvents({ accountBots: bots, objects, voices: { polly: false } }),
    'deliver-batch': batchEvents({ batches: new DynamoBatchStore(dynamo.client, 'batches') }),
  };
  deps = { owners, keys, mode: 'local', now: () => new Date(), deliver };
});
afterAll(() => dynamo.stop());

it("keeps one chain of attempts per event: a re-queued duplicate is dropped, a caller's redelivery is its own chain", async () => {
  deliver.mockResolvedValueOnce({ ok: false, statusCode: 500, error: 'HTTP 500', durationMs: 3, retryable: true });
  const first = await deliverEvent(message, { messageId: 'msg-original', receiveCount: 1 }, deps);
  expect(first).toMatchObject({ done: false });
  expect(deliver).toHaveBeenCalledTimes(1);

  // The sweeper's re-queue of the same event (first attempt, another message): dropped without a POST.
  expect(await deliverEvent(message, { messageId: 'msg-requeued', receiveCount: 1 }, deps)).toEqual({ done: true });
  expect(deliver).toHaveBeenCalledTimes(1);

  // The original chain goes on and delivers.
  deliver.mockResolvedValueOnce({ ok: true, statusCode: 204, durationMs: 3, retryable: false });
  expect(await deliverEvent(message, { messageId: 'msg-original', receiveCount: 2 }, deps)).toEqual({ done: true });
  expect(deliver).toHaveBeenCalledTimes(2);
  const delivered = await videos.get('vid_chain');
  expect(delivered?.delivery).toMatchObject({ state: 'delivered', chainId: 'msg-original' });
  expect(delivered?.delivery.attempts.map((a) => a.statusCode)).toEqual([500, 204]);

  // POST /v1/video/{id}/redeliver: a new chain, sent even though the event was delivered.
  deliver.mockResolvedValueOnce({ ok: true, statusCode: 200, durationMs: 3, retryable: false });
  await deliverEvent({ ...message, attempt: 3, redelivery: true }, { messageId: 'msg-redeliver', receiveCount: 1 }, deps);
  expect(deliver).toHaveBeenCalledTimes(3);
  expect((await videos.get('vid_chain'))?.delivery.chainId).toBe('msg-redeliver');
});

it("takes a batch's row that sends no event of its own out of the sweeper's index, without a POST", async () => {
  const quiet = { ...(await videos.get('vid_chain'))!, videoId: 'vid_quiet', status: 'completed' as const, error: undefined };
  await videos.create({ ...quiet, delivery: { state: 'none', attempts: [] }, batch: { batchId: 'bat_1', row: 0 } });
  expect((await videos.listOverdue(Math.floor(Date.now() / 1000), 10)).map((v) => v.videoId)).toContain('vid_quiet');
  const calls = deliver.mock.calls.length;
  expect(await deliverEvent({ ...message, videoId: 'vid_quiet' }, { messageId: 'msg-quiet', receiveCount: 1 }, deps)).toEqual({ done: true });
  expect(deliver.mock.calls.length).toBe(calls);
  expect((await videos.listOverdue(Math.floor(Date.now() / 1000), 10)).map((v) => v.videoId)).not.toContain('vid_quiet');
  expect((await videos.get('vid_quiet'))?.delivery).toEqual({ state: 'none', attempts: [] });
});

describe("a bot's event", () => {
  it("is recorded on the bot as a video's: one chain per event, a redelivery its own chain, and POST …/redeliver only once it has ended", async () => {
    const now = '2026-11-23T10:00:00.000Z';
    const bot: AccountBot = {
      tenantId: 'acct_1',
      uid: 'my-host',
      keyId: issued.record.keyId,
      name: 'Host',
      description: '',
      voice: 'espeak:en-us+f3',
      defaultPosition: 'center',
      webhookUrl: 'https://hooks.test/bots',
      status: 'preparing',
      version: 'v_1',
      source: { kind: 'photo_url', url: 'https://images.test/me.jpg' },
      createdAt: now,
      updatedAt: now,
    };
    await bots.put(bot, undefined);
    const look = { version: 'v_1', files: ['preview.png'], preview: 'preview.png' };
    expect(await bots.markReady('acct_1', 'my-host', 'v_1', look, now, settledDelivery(bot, 'bot.ready'))).toBe(true);
    const eventId = `evt_bot_acct_1_my-host_v_1_ready`;
    expect((await bots.get('acct_1', 'my-host'))!.delivery).toEqual({ eventId, state: 'pending', attempts: [] });

    const notifyQueue = new RecordingQueue<DeliverBotMessage>();
    const clock = () => new Date(Date.parse(now) + 60_000);
    const message = { kind: 'deliver-bot' as const, tenantId: 'acct_1', uid: 'my-host', version: 'v_1', eventId, attempt: 1 };
    deliver.mockReset();
    deliver.mockResolvedValueOnce({ ok: false, statusCode: 503, error: 'HTTP 503', durationMs: 2, retryable: true });
    expect(await deliverEvent(message, { messageId: 'msg-bot', receiveCount: 1 }, deps)).toMatchObject({ done: false });
    // The event is the bot as GET shows it, less the record of its own delivery (the same body every attempt).
    expect(deliver.mock.calls[0]![0].event).toMatchObject({ type: 'bot.ready', data: { uid: 'my-host', status: 'ready' } });
    expect(deliver.mock.calls[0]![0].event.data).not.toHaveProperty('webhook_delivery');
    // Still being delivered: a redelivery now would double the attempts.
    await expect(redeliverBotEvent({ accountBots: bots, notifyQueue, now: clock }, 'acct_1', 'my-host')).rejects.toBeInstanceOf(ConflictError);
    // The same event queued again by a redelivered preparation: dropped without a POST.
    expect(await deliverEvent(message, { messageId: 'msg-bot-again', receiveCount: 1 }, deps)).toEqual({ done: true });
    expect(deliver).toHaveBeenCalledTimes(1);
    deliver.mockResolvedValueOnce({ ok: true, statusCode: 204, durationMs: 2, retryable: false });
    expect(await deliverEvent(message, { messageId: 'msg-bot', receiveCount: 2 }, deps)).toEqual({ done: true });
    const delivered = (await bots.get('acct_1', 'my-host'))!;
    expect(delivered.delivery).toMatchObject({ state: 'delivered', chainId: 'msg-bot' });
    expect(delivered.delivery!.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 503],
      [2, 204],
    ]);

    // POST /v1/bot/{uid}/redeliver: queued as a new chain, sent although delivered, recorded after the others.
    expect(await redeliverBotEvent({ accountBots: bots, notifyQueue, now: clock }, 'acct_1', 'my-host')).toMatchObject({ eventId });
    const [redelivery] = notifyQueue.take();
    expect(redelivery).toEqual({ ...message, attempt: 3, redelivery: true });
    deliver.mockResolvedValueOnce({ ok: true, statusCode: 200, durationMs: 2, retryable: false });
    await deliverEvent(redelivery!, { messageId: 'msg-bot-redeliver', receiveCount: 1 }, deps);
    expect(deliver).toHaveBeenCalledTimes(3);
    expect((await bots.get('acct_1', 'my-host'))!.delivery).toMatchObject({
      state: 'delivered',
      chainId: 'msg-bot-redeliver',
      attempts: [{}, {}, { attempt: 3, statusCode: 200 }],
    });

    // Built in, someone else's, or without a webhook: nothing to redeliver.
    await expect(redeliverBotEvent({ accountBots: bots, notifyQueue, now: clock }, 'acct_1', 'bot_ava')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(redeliverBotEvent({ accountBots: bots, notifyQueue, now: clock }, 'acct_2', 'my-host')).rejects.toBeInstanceOf(NotFoundError);
    const quiet: AccountBot = { ...bot, uid: 'no-hook', webhookUrl: undefined };
    await bots.put(quiet, undefined);
    await bots.markReady('acct_1', 'no-hook', 'v_1', look, now, settledDelivery(quiet, 'bot.ready'));
    expect((await bots.get('acct_1', 'no-hook'))!.delivery).toBeUndefined();
    await expect(redeliverBotEvent({ accountBots: bots, notifyQueue, now: clock }, 'acct_1', 'no-hook')).rejects.toBeInstanceOf(ConflictError);
    expect(notifyQueue.take()).toEqual([]);

    // An event lost between the settle and the queue: still pending with no attempt. Refused for ten minutes after the
    // settle (its first attempt may be on its way, or the sweeper's re-queue), then sent.
    const lost: AccountBot = { ...bot, uid: 'lost-event' };
    await bots.put(lost, undefined);
    await bots.markReady('acct_1', 'lost-event', 'v_1', look, now, settledDelivery(lost, 'bot.ready'));
    const at = (minutes: number) => () => new Date(Date.parse(now) + minutes * 60_000);
    await expect(redeliverBotEvent({ accountBots: bots, notifyQueue, now: at(9) }, 'acct_1', 'lost-event')).rejects.toBeInstanceOf(ConflictError);
    expect(await redeliverBotEvent({ accountBots: bots, notifyQueue, now: at(10) }, 'acct_1', 'lost-event')).toMatchObject({
      eventId: 'evt_bot_acct_1_lost-event_v_1_ready',
    });
    expect(notifyQueue.take()).toEqual([
      { ...message, uid: 'lost-event', eventId: 'evt_bot_acct_1_lost-event_v_1_ready', attempt: 1, redelivery: true },
    ]);

    // A failed bot's event has its own id; a bot settled before events were recorded is sent as a fresh one.
    const failing: AccountBot = { ...bot, uid: 'failing' };
    await bots.put(failing, undefined);
    await bots.markFailed('acct_1', 'failing', 'v_1', { code: 'no_face_found', message: 'no face' }, now, settledDelivery(failing, 'bot.failed'));
    expect((await bots.get('acct_1', 'failing'))!.delivery).toEqual({ eventId: 'evt_bot_acct_1_failing_v_1_failed', state: 'pending', attempts: [] });
    const older: AccountBot = { ...bot, uid: 'older', status: 'ready', look };
    await bots.put(older, undefined);
    await redeliverBotEvent({ accountBots: bots, notifyQueue, now: at(10) }, 'acct_1', 'older');
    expect(notifyQueue.take()).toEqual([{ ...message, uid: 'older', eventId: 'evt_bot_acct_1_older_v_1_ready', attempt: 1, redelivery: true }]);

    // An attempt of a version replaced meanwhile is not recorded on the new one.
    const replaced = (await bots.get('acct_1', 'my-host'))!;
    const next: AccountBot = { ...replaced, version: 'v_2', status: 'preparing', updatedAt: '2026-11-23T11:00:00.000Z' };
    delete next.delivery;
    expect(await bots.put(next, replaced)).toBe(true);
    await bots.recordDeliveryAttempt('acct_1', 'my-host', 'v_1', { attempt: 4, at: now, statusCode: 200, durationMs: 1 }, 'delivered', 'msg-late');
    expect((await bots.get('acct_1', 'my-host'))!.delivery).toBeUndefined();
  });
});

describe("a batch's batch.completed", () => {
  it('is recorded on the batch, and dropped while the batch has not settled', async () => {
    const batches = new DynamoBatchStore(dynamo.client, 'batches');
    const at = '2026-11-23T10:00:00.000Z';
    const batch: BatchRecord = {
      tenantId: 'acct_1',
      batchId: 'bat_chain',
      keyId: issued.record.keyId,
      templateUid: 'outreach',
      templateName: 'Outreach',
      webhookUrl: 'https://hooks.test/batches',
      url: 'https://api.test/v1/batches/bat_chain',
      notifyEach: false,
      rowCount: 1,
      status: 'running',
      nextRow: 1,
      inFlight: [0],
      counts: { completed: 0, failed: 0, cancelled: 0 },
      rowErrors: {},
      sharedClips: [],
      version: 1,
      tickAt: 0,
      createdAt: at,
      updatedAt: at,
    };
    await batches.create(batch);
    const batchMessage = { kind: 'deliver-batch' as const, tenantId: 'acct_1', batchId: 'bat_chain', eventId: 'evt_bat_chain', attempt: 1 };
    deliver.mockReset();
    expect(await deliverEvent(batchMessage, { messageId: 'msg-batch', receiveCount: 1 }, deps)).toEqual({ done: true });
    expect(deliver).not.toHaveBeenCalled();

    const settled = { ...batch, status: 'completed' as const, inFlight: [], counts: { completed: 1, failed: 0, cancelled: 0 }, completedAt: at };
    expect(await batches.save({ ...settled, delivery: { state: 'pending', attempts: [], eventId: 'evt_bat_chain' } }, 1)).toBe(true);
    deliver.mockResolvedValueOnce({ ok: true, statusCode: 204, durationMs: 2, retryable: false });
    expect(await deliverEvent(batchMessage, { messageId: 'msg-batch', receiveCount: 1 }, deps)).toEqual({ done: true });
    expect(deliver.mock.calls[0]![0]).toMatchObject({
      url: 'https://hooks.test/batches',
      eventId: 'evt_bat_chain',
      event: { type: 'batch.completed' },
    });
    expect((await batches.get('acct_1', 'bat_chain'))?.delivery).toMatchObject({ state: 'delivered', chainId: 'msg-batch' });
  });
});
