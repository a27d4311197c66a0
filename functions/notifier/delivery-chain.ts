/**
 * The rules every event's delivery follows, whatever it is about (a video, a bot, a batch): one chain of attempts
 * per event, and the state an attempt leaves. The delivery job (delivery-job.ts) applies them; the owner adapters
 * (owners/) say only what is sent and where it is recorded.
 */

import { logger } from '#commons/logger';
import { recordWebhookAttempt } from '#commons/metrics';
import type { DeliveryAttempt, DeliveryState } from '#domain/video';
import { type DeliverWebhookOptions, type DeliveryResult, deliverWebhook, toDeliveryAttempt } from './deliver.ts';
import { MAX_DELIVERY_ATTEMPTS, nextDelaySeconds } from './retry.ts';

interface ChainMessage {
  attempt: number;
  /** Asked for by the caller: sent even if delivered, as a chain of its own. */
  redelivery?: boolean;
}
/** The delivery as recorded on the event's owner. */
export interface RecordedDelivery {
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  chainId?: string;
}

/** Delivered already, and this message is no caller's redelivery: nothing to send. */
export const alreadyDelivered = (message: ChainMessage, delivery: RecordedDelivery | undefined) =>
  delivery?.state === 'delivered' && !message.redelivery;

/**
 * A first-attempt message whose event another message is already carrying (the sweeper re-queued an event that was
 * only late, or a redelivered job queued it again): one chain of retries is enough. A redelivery starts a chain of
 * its own; a message that continues an earlier chain (attempt > 1, the local runtime's restart recovery) takes the
 * chain over.
 */
export const carriedByAnotherChain = (message: ChainMessage, delivery: RecordedDelivery | undefined, messageId: string) =>
  !message.redelivery && message.attempt === 1 && !!delivery?.chainId && delivery.chainId !== messageId;

/**
 * Where this attempt stands in its chain's schedule: a caller's redelivery starts a schedule of its own; any other
 * message continues its chain from `attempt` (a chain's first message says 1; the local runtime's restart
 * recovery says where the chain had got to, so its backoff and its number of attempts go on rather than restart).
 * @internal Exported for its tests.
 */
export const positionInSchedule = (message: ChainMessage, receiveCount: number) =>
  message.redelivery ? receiveCount : message.attempt + receiveCount - 1;

/**
 * What one attempt leaves: its number, when to try again (undefined: no retry, it succeeded or cannot succeed), and
 * the event's state. Once delivered, a failing redelivery does not make the event undelivered.
 * @internal Exported for its tests.
 */
export function afterAttempt(result: DeliveryResult, delivery: RecordedDelivery | undefined, message: ChainMessage, receiveCount: number) {
  const retryIn =
    result.ok || !result.retryable ? undefined : nextDelaySeconds(positionInSchedule(message, receiveCount), Math.random, MAX_DELIVERY_ATTEMPTS);
  const state: DeliveryState = result.ok || delivery?.state === 'delivered' ? 'delivered' : retryIn === undefined ? 'failed' : 'delivering';
  return { attemptNumber: (delivery?.attempts.length ?? 0) + 1, retryIn, state };
}

/** What the queue consumer must do with the message after an attempt. */
export type DeliveryOutcome = { done: true } | { done: false; retryInSeconds: number; reason: string };

/** The queue message being handled: its id names the chain of attempts it carries. */
export interface Receipt {
  messageId: string;
  /** ApproximateReceiveCount: each receive is one attempt of the schedule. */
  receiveCount: number;
}

/** One attempt of an event, whoever it is about (a video, a bot, a batch): what to send and where to record it. */
export interface EventAttempt {
  send: DeliverWebhookOptions;
  delivery: RecordedDelivery | undefined;
  message: ChainMessage & { eventId: string };
  receipt: Receipt;
  /** Records the attempt on the event's owner (the chain is the message that made it). */
  record: (attempt: DeliveryAttempt, state: DeliveryState, chainId: string) => Promise<void>;
  /** The owner in the log line: `{ video_id }`, `{ bot_uid }`, `{ batch_id }`. */
  owner: Record<string, string>;
  deliver?: (options: DeliverWebhookOptions) => Promise<DeliveryResult>;
}

/**
 * Sends the event once, records the attempt, counts and logs it, and says whether the queue tries again. After
 * the last scheduled attempt the message is let go to the dead-letter queue (retryInSeconds 0).
 */
export async function attemptDelivery({
  send,
  delivery,
  message,
  receipt,
  record,
  owner,
  deliver = deliverWebhook,
}: EventAttempt): Promise<DeliveryOutcome> {
  const result = await deliver(send);
  const { attemptNumber, retryIn, state } = afterAttempt(result, delivery, message, receipt.receiveCount);
  await record(toDeliveryAttempt(result, attemptNumber, send.now), state, receipt.messageId);
  recordWebhookAttempt(result.ok);
  logger[result.ok ? 'info' : 'warn']('webhook attempt', {
    ...owner,
    event_id: message.eventId,
    attempt: attemptNumber,
    receive: receipt.receiveCount,
    state,
    status_code: result.statusCode,
    error: result.error,
    detail: result.detail,
    retry_in_s: retryIn,
  });
  if (result.ok || !result.retryable) return { done: true };
  return { done: false, retryInSeconds: retryIn ?? 0, reason: result.error ?? 'delivery failed' };
}
