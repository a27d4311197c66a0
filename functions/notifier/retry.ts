/**
 * When to try a webhook delivery again. Each receive of a notify-queue message is one attempt; a failed attempt
 * hides the message for the next delay (ChangeMessageVisibility) and the queue's maxReceiveCount (12, see
 * infra/wiring.ts `queues.notify`) ends it in the dead-letter queue.
 *
 * Attempt n waits DELIVERY_SCHEDULE_SECONDS[n - 1] after attempt n - 1: 0, 30 s, 2 min, 5 min, 15 min, 30 min,
 * 1 h, 2 h, 3 h, 4 h, 6 h, 7 h, about 24 h from first to last attempt. Each delay is jittered by ±20 % so
 * that events failing together (a receiver outage) do not come back together, and capped at 12 h, the
 * longest visibility timeout SQS accepts.
 */

export const DELIVERY_SCHEDULE_SECONDS: readonly number[] = [0, 30, 120, 300, 900, 1800, 3600, 7200, 10800, 14400, 21600, 25200];
export const MAX_DELIVERY_ATTEMPTS = DELIVERY_SCHEDULE_SECONDS.length;
/** @internal Exported for its tests. */
export const DELIVERY_JITTER = 0.2;
/**
 * SQS's maximum visibility timeout.
 * @internal Exported for its tests.
 */
export const MAX_DELAY_SECONDS = 12 * 60 * 60;

/**
 * True when `attempt` (counting from 1) is the last one: no retry follows a failure.
 * @internal Exported for its tests.
 */
export const isLastAttempt = (attempt: number, maxAttempts = MAX_DELIVERY_ATTEMPTS) => attempt >= maxAttempts;

/**
 * Seconds to wait after failed attempt `attempt` (counting from 1) before the next one, or undefined when
 * that was the last attempt. `random` returns [0, 1) and is injected by tests.
 */
export function nextDelaySeconds(attempt: number, random: () => number = Math.random, maxAttempts = MAX_DELIVERY_ATTEMPTS): number | undefined {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer >= 1, got ${attempt}`);
  if (isLastAttempt(attempt, maxAttempts)) return undefined;
  const base = DELIVERY_SCHEDULE_SECONDS[Math.min(attempt, DELIVERY_SCHEDULE_SECONDS.length - 1)]!;
  const factor = 1 - DELIVERY_JITTER + 2 * DELIVERY_JITTER * random();
  return Math.min(MAX_DELAY_SECONDS, Math.max(1, Math.round(base * factor)));
}
