/**
 * A restart of the local runtime must not reset a failing webhook's backoff (it went from 30 s again: 9 of 12
 * attempts in 22 minutes) nor grant it 12 more attempts: the recovered message continues its chain's schedule,
 * and waits what the schedule still owed since the last attempt.
 */
import { describe, expect, it } from 'vitest';
import { afterAttempt, positionInSchedule } from '#functions/notifier/delivery-chain.ts';
import { DELIVERY_SCHEDULE_SECONDS } from '#functions/notifier/retry.ts';
import { recoveredDeliveryDelay } from '#infra/local/recover.ts';

const failed = { ok: false, retryable: true, statusCode: 500, error: 'HTTP 500', durationMs: 5 } as const;
const attempts = (n: number, lastAt: number) => Array.from({ length: n }, (_, i) => ({ at: new Date(lastAt - (n - 1 - i) * 1000).toISOString() }));

describe('webhook retries across a restart', () => {
  it('a recovered message continues its chain; a redelivery starts its own', () => {
    expect(positionInSchedule({ attempt: 1 }, 3)).toBe(3);
    expect(positionInSchedule({ attempt: 10 }, 1)).toBe(10);
    expect(positionInSchedule({ attempt: 13, redelivery: true }, 2)).toBe(2);
  });

  it('after the 10th attempt (the first after a restart) the next waits the 10th delay of the schedule, not 30 s', () => {
    const { retryIn } = afterAttempt(failed, { state: 'delivering', attempts: [] }, { attempt: 10 }, 1);
    expect(retryIn).toBeGreaterThanOrEqual(DELIVERY_SCHEDULE_SECONDS[10]! * 0.8);
    expect(retryIn).toBeLessThanOrEqual(DELIVERY_SCHEDULE_SECONDS[10]! * 1.2);
  });

  it('the 12th attempt of a chain is its last, however many restarts came between', () => {
    expect(afterAttempt(failed, { state: 'delivering', attempts: [] }, { attempt: 12 }, 1)).toMatchObject({ retryIn: undefined, state: 'failed' });
    expect(afterAttempt(failed, { state: 'delivering', attempts: [] }, { attempt: 11 }, 2)).toMatchObject({ retryIn: undefined, state: 'failed' });
  });

  it("a recovered event waits what the schedule still owed (at most SQS's 15 minutes), or goes at once when due", () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(recoveredDeliveryDelay([], now)).toBe(0);
    // Three attempts, the last a minute ago: the fourth is due 300 s after it.
    expect(recoveredDeliveryDelay(attempts(3, now - 60_000), now)).toBe(DELIVERY_SCHEDULE_SECONDS[3]! - 60);
    // Five attempts: 30 minutes owed, cut to 15.
    expect(recoveredDeliveryDelay(attempts(5, now - 60_000), now)).toBe(900);
    // Overdue already.
    expect(recoveredDeliveryDelay(attempts(2, now - 3_600_000), now)).toBe(0);
  });
});
