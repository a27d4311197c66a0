/**
 * Queue messages are validated at the edge: a malformed message is reported as failed on its own (so the redrive
 * policy dead-letters it), the rest of the batch is handled, and the job never sees it.
 */
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it, vi } from 'vitest';
import type { QueueJob } from '#commons/jobs';
import { jobConsumer, mediaDeadlineOf, queueConsumer, retryDelaySeconds } from '#commons/queue-consumer';
import { JobFailedError } from '#domain/errors';
import { assembleMessageSchema, deadLetteredJobSchema, deliverMessageSchema, renderClipMessageSchema } from '#domain/messages';

const record = (messageId: string, body: string, receive = 1): SQSRecord =>
  ({
    messageId,
    receiptHandle: `rh-${messageId}`,
    body,
    attributes: { ApproximateReceiveCount: String(receive) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:render',
    awsRegion: 'us-east-1',
  }) as unknown as SQSRecord;

const context = { awsRequestId: 'req-1', functionName: 'render', getRemainingTimeInMillis: () => 60_000 } as unknown as Context;

describe('queueConsumer', () => {
  it('hands valid messages to the job and reports each malformed one alone, without crashing the batch', async () => {
    const handled: unknown[] = [];
    const handler = queueConsumer(renderClipMessageSchema, async ({ message, receive }) => void handled.push({ ...message, receive }));
    const event: SQSEvent = {
      Records: [
        record('ok-1', JSON.stringify({ kind: 'render-clip', tenantId: 'acct_t', videoId: 'vid_abc', clipIndex: 0 }), 2),
        record('not-json', '{"kind": "render-clip", '),
        record('wrong-kind', JSON.stringify({ kind: 'assemble', tenantId: 'acct_t', videoId: 'vid_abc' })),
        record('bad-index', JSON.stringify({ kind: 'render-clip', tenantId: 'acct_t', videoId: 'vid_abc', clipIndex: -1 })),
        record('bad-id', JSON.stringify({ kind: 'render-clip', tenantId: 'acct_t', videoId: '../../etc', clipIndex: 0 })),
        record('ok-2', JSON.stringify({ kind: 'render-clip', tenantId: 'acct_t', videoId: 'vid_def', clipIndex: 3 })),
      ],
    };
    const result = await handler(event, context);
    expect(handled).toEqual([
      { kind: 'render-clip', tenantId: 'acct_t', videoId: 'vid_abc', clipIndex: 0, receive: 2 },
      { kind: 'render-clip', tenantId: 'acct_t', videoId: 'vid_def', clipIndex: 3, receive: 1 },
    ]);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['bad-id', 'bad-index', 'not-json', 'wrong-kind']);
  });

  it('runs the before-batch step once per invocation', async () => {
    const before = vi.fn();
    const handler = queueConsumer(assembleMessageSchema, async () => undefined, { beforeBatch: before });
    await handler({ Records: [record('a', JSON.stringify({ kind: 'assemble', tenantId: 'acct_t', videoId: 'vid_x' }))] }, context);
    expect(before).toHaveBeenCalledTimes(1);
    expect(before).toHaveBeenCalledWith(context);
  });
});

describe('jobConsumer', () => {
  type Message = { kind: 'render-clip'; tenantId: string; videoId: string; clipIndex: number };
  const renderMessage = (messageId: string, videoId: string, receive: number) =>
    record(messageId, JSON.stringify({ kind: 'render-clip', tenantId: 'acct_t', videoId, clipIndex: 0 }), receive);

  it("runs the job under the policy: the caller's error fails the record at once, a transient one is retried, the last receive fails it", async () => {
    const failed: { videoId: string; code: string }[] = [];
    const job: QueueJob<Message, { deadline: number }> = {
      name: 'test',
      fatal: { code: 'test_failed', message: (attempts) => `failed after ${attempts}` },
      logKeys: (message) => ({ video_id: message.videoId }),
      fail: async (message, failure) => void failed.push({ videoId: message.videoId, code: failure.code }),
      async run(message, deps) {
        expect(deps.deadline).toBe(60_000);
        if (message.videoId === 'vid_bad') throw new JobFailedError('background_invalid', 'it cannot be decoded');
        if (message.videoId.startsWith('vid_flaky')) throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      },
    };
    const handler = jobConsumer(renderClipMessageSchema, job, {
      deps: ({ context }) => ({ deadline: context.getRemainingTimeInMillis() }),
      maxReceives: 3,
    });
    const result = await handler(
      {
        Records: [
          renderMessage('ok', 'vid_ok', 1),
          renderMessage('bad', 'vid_bad', 1),
          renderMessage('flaky', 'vid_flaky', 1),
          renderMessage('last', 'vid_flaky_last', 3),
        ],
      },
      context,
    );
    expect(failed).toEqual([
      { videoId: 'vid_bad', code: 'background_invalid' },
      { videoId: 'vid_flaky_last', code: 'test_failed' },
    ]);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['flaky', 'last']);
  });

  it("hides a transiently failed message for a backoff by its receive, not the whole visibility timeout; a caller's error is not retried", async () => {
    const job: QueueJob<Message, object> = {
      name: 'test',
      fatal: { code: 'test_failed', message: () => 'failed' },
      logKeys: () => ({}),
      fail: async () => undefined,
      async run(message) {
        if (message.videoId === 'vid_bad') throw new JobFailedError('background_invalid', 'it cannot be decoded');
        throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      },
    };
    const hidden: { receiptHandle: string; seconds: number }[] = [];
    const handler = jobConsumer(renderClipMessageSchema, job, {
      deps: () => ({}),
      maxReceives: 3,
      retryIn: async (record, seconds) => void hidden.push({ receiptHandle: record.receiptHandle, seconds }),
    });
    const result = await handler(
      { Records: [renderMessage('first', 'vid_a', 1), renderMessage('second', 'vid_b', 2), renderMessage('bad', 'vid_bad', 1)] },
      context,
    );
    expect(hidden).toEqual([
      { receiptHandle: 'rh-first', seconds: 10 },
      { receiptHandle: 'rh-second', seconds: 40 },
    ]);
    expect(result.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(['first', 'second']);
    // A backoff never exceeds the render queue's visibility timeout (960 s).
    expect([1, 2, 3, 4, 10].map(retryDelaySeconds)).toEqual([10, 40, 160, 600, 600]);

    // With the queue's visibility timeout scaled down (a test runtime's 14 s), no backoff is longer than it.
    const scaled: number[] = [];
    const shortQueue = jobConsumer(renderClipMessageSchema, job, {
      deps: () => ({}),
      maxReceives: 5,
      retryIn: async (_record, seconds) => void scaled.push(seconds),
      visibilitySeconds: 14,
    });
    await shortQueue(
      {
        Records: [renderMessage('a', 'vid_a', 1), renderMessage('b', 'vid_b', 2), renderMessage('c', 'vid_c', 3), renderMessage('bad', 'vid_bad', 1)],
      },
      context,
    );
    expect(scaled).toEqual([10, 14, 14]);

    // A message that cannot be hidden still fails as it should (and returns after the visibility timeout).
    const unhidable = jobConsumer(renderClipMessageSchema, job, {
      deps: () => ({}),
      maxReceives: 3,
      retryIn: async () => {
        throw new Error('AccessDenied');
      },
    });
    const failedAnyway = await unhidable({ Records: [renderMessage('x', 'vid_x', 1), renderMessage('bad', 'vid_bad', 1)] }, context);
    expect(failedAnyway.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['x']);
  });
});

describe('message schemas', () => {
  it('accept what the producers send and refuse anything else', () => {
    expect(
      deliverMessageSchema.safeParse({
        kind: 'deliver',
        tenantId: 'acct_t',
        videoId: 'vid_a',
        eventId: 'evt_vid_a_completed',
        attempt: 1,
        redelivery: true,
      }).success,
    ).toBe(true);
    expect(deliverMessageSchema.safeParse({ kind: 'deliver', tenantId: 'acct_t', videoId: 'vid_a', eventId: 'evt', attempt: 0 }).success).toBe(false);
    expect(deadLetteredJobSchema.safeParse({ kind: 'assemble', tenantId: 'acct_t', videoId: 'vid_a' }).success).toBe(true);
    expect(deadLetteredJobSchema.safeParse({ kind: 'deliver', tenantId: 'acct_t', videoId: 'vid_a' }).success).toBe(false);
  });

  it("ends a job's media runs a minute before the function's time limit (the render's and the assembly's one source)", () => {
    const fifteenMinutes = { getRemainingTimeInMillis: () => 900_000 };
    expect(mediaDeadlineOf(fifteenMinutes, 1_000_000)).toBe(1_000_000 + 840_000);
  });
});
