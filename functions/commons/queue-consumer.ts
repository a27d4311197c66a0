/**
 * An SQS-triggered handler: Powertools' batch processor (partial batch responses) around a record handler that
 * receives a message already parsed with its schema. A malformed message is logged and reported as failed on
 * its own — the rest of the batch goes on — so the queue's redrive policy moves it to the dead-letter queue
 * after its receives; it never reaches the job.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';
import { envNames } from './env-names.ts';
import { runInvocation } from './invocation.ts';
import { type QueueJob, runQueueJob } from './jobs.ts';
import { logger } from './logger.ts';
import { recordQueueAges } from './metrics.ts';

/** A message its schema refuses. */
class MalformedMessageError extends Error {
  constructor(readonly messageId: string) {
    super(`message ${messageId} does not match its schema`);
    this.name = 'MalformedMessageError';
  }
}

/** Parses a queue message body: the message, or MalformedMessageError (logged with what was wrong). */
function parseMessage<S extends z.ZodType>(schema: S, record: Pick<SQSRecord, 'body' | 'messageId'>): z.infer<S> {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  logger.error('malformed queue message; it will be dead-lettered', {
    message_id: record.messageId,
    body: record.body.slice(0, 500),
    problems: parsed.error.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`),
  });
  throw new MalformedMessageError(record.messageId);
}

export interface ReceivedMessage<T> {
  message: T;
  record: SQSRecord;
  /** ApproximateReceiveCount: 1 on the first receive. */
  receive: number;
  /** The invocation's Lambda context (its time left bounds long work). */
  context: Context;
}

export function queueConsumer<S extends z.ZodType>(
  schema: S,
  handle: (received: ReceivedMessage<z.infer<S>>) => Promise<void>,
  options: { beforeBatch?: (context: Context) => unknown } = {},
) {
  const processor = new BatchProcessor(EventType.SQS);
  // Powertools hands each record handler the invocation's context (given below): no module-level state.
  const onRecord = async (record: SQSRecord, context: Context) => {
    const message = parseMessage(schema, record);
    await handle({ message, record, receive: Number(record.attributes?.ApproximateReceiveCount ?? 1), context });
  };
  return (event: SQSEvent, context: Context) =>
    runInvocation(context, async () => {
      recordQueueAges(queueNameOf(event), event.Records);
      await options.beforeBatch?.(context);
      return processPartialResponse(event, onRecord, processor, { context });
    });
}

export interface JobConsumerOptions<M, D> {
  /** The job's dependencies for one message (a render's deadline comes from the invocation's time left). */
  deps: (received: ReceivedMessage<M>) => D;
  /** The queue's receives before its dead-letter queue (config maxReceiveCount): the last one fails the record. */
  maxReceives: number;
  beforeBatch?: (context: Context) => unknown;
  /**
   * Hides a message that failed transiently for `seconds` (ChangeMessageVisibility on the consumed queue), so that
   * its next attempt comes after a short backoff (retryDelaySeconds) rather than the queue's whole visibility
   * timeout, which for a render is its 15-minute limit.
   */
  retryIn?: (record: SQSRecord, seconds: number) => Promise<unknown>;
  /** The consumed queue's visibility timeout (config visibilitySeconds): no backoff is longer than it. */
  visibilitySeconds?: number;
}

/** What a job's media runs leave of the function's time limit for the rest (its upload, its record). */
const MEDIA_TIME_LEFT_MS = 60_000;

/**
 * When a job's media runs must have ended (ms since the epoch): a minute before the invocation's own time limit, so
 * that the watchdog, not Lambda, stops a slow run, and the upload and the record still have time.
 */
export const mediaDeadlineOf = (context: Pick<Context, 'getRemainingTimeInMillis'>, now = Date.now()) =>
  now + context.getRemainingTimeInMillis() - MEDIA_TIME_LEFT_MS;

/**
 * The backoff of a transient failure's next attempt, by the receive that failed: 10 s, 40 s, 160 s, then 10 min.
 * @internal Exported for its tests.
 */
export const retryDelaySeconds = (receive: number) => Math.min(600, 10 * 4 ** Math.max(0, receive - 1));

/**
 * A queue consumer that runs a job under the one failure policy of queue jobs (jobs.ts), with the job's log keys
 * and the receive count on every log line of the message's run.
 */
export function jobConsumer<S extends z.ZodType, D>(schema: S, job: QueueJob<z.infer<S>, D>, options: JobConsumerOptions<z.infer<S>, D>) {
  return queueConsumer(
    schema,
    async (received) => {
      const keys = { ...job.logKeys(received.message), receive: received.receive };
      logger.appendKeys(keys);
      try {
        await runQueueJob(job, received.message, received.receive, options.maxReceives, options.deps(received));
      } catch (error) {
        // Rethrown: a transient failure, to be retried. If it cannot be hidden, it returns after the visibility timeout.
        const seconds = Math.min(retryDelaySeconds(received.receive), options.visibilitySeconds ?? Infinity);
        await options.retryIn?.(received.record, seconds).then(
          () => logger.info('next attempt after a backoff', { retry_in_s: seconds }),
          (hideError: Error) =>
            logger.warn('could not schedule the next attempt; it comes after the visibility timeout', { error: hideError.message }),
        );
        throw error;
      } finally {
        logger.removeKeys(Object.keys(keys));
      }
    },
    { beforeBatch: options.beforeBatch },
  );
}

/** The wiring's name of the consumer's queue (CONSUMED_QUEUE), else the name in the records' queue ARN. */
function queueNameOf(event: SQSEvent): string {
  return process.env[envNames.consumedQueue] || event.Records[0]?.eventSourceARN?.split(':').pop() || 'unknown';
}
