/**
 * The rules every event's delivery follows, a video's or a bot's: one chain of attempts per event, and the state
 * an attempt leaves. The two jobs (deliver-job.ts, deliver-bot-job.ts) differ only in what they send and where they
 * record it.
 */

import type { DeliveryAttempt, DeliveryState } from '#domain/video';
import type { DeliveryResult } from './deliver.ts';
import { MAX_DELIVERY_ATTEMPTS, nextDelaySeconds } from './retry.ts';

interface ChainMessage {
  attempt: number;
  /** Asked for by the caller: sent even if delivered, as a chain of its own. */
  redelivery?: boolean;
}
interface RecordedDelivery {
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
 */
export function afterAttempt(result: DeliveryResult, delivery: RecordedDelivery | undefined, message: ChainMessage, receiveCount: number) {
  const retryIn =
    result.ok || !result.retryable ? undefined : nextDelaySeconds(positionInSchedule(message, receiveCount), Math.random, MAX_DELIVERY_ATTEMPTS);
  const state: DeliveryState = result.ok || delivery?.state === 'delivered' ? 'delivered' : retryIn === undefined ? 'failed' : 'delivering';
  return { attemptNumber: (delivery?.attempts.length ?? 0) + 1, retryIn, state };
}
