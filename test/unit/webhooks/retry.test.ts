import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DELIVERY_JITTER,
  DELIVERY_SCHEDULE_SECONDS,
  isLastAttempt,
  MAX_DELAY_SECONDS,
  MAX_DELIVERY_ATTEMPTS,
  nextDelaySeconds,
} from '#functions/notifier/retry.ts';
import { queues } from '#infra/wiring.ts';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const delaysWith = (random: () => number) => Array.from({ length: MAX_DELIVERY_ATTEMPTS - 1 }, (_v, i) => nextDelaySeconds(i + 1, random)!);

describe('webhook retry schedule', () => {
  it('has one attempt per receive of the notify queue', () => {
    expect(MAX_DELIVERY_ATTEMPTS).toBe(queues.notify.maxReceiveCount);
    expect(DELIVERY_SCHEDULE_SECONDS[0]).toBe(0);
  });

  it('spreads the attempts over about 24 hours', () => {
    const total = sum([...DELIVERY_SCHEDULE_SECONDS]);
    expect(total).toBeGreaterThan(22 * 3600);
    expect(total).toBeLessThan(26 * 3600);
    // Without jitter (random = 0.5) the delays are the schedule itself.
    expect(delaysWith(() => 0.5)).toEqual(DELIVERY_SCHEDULE_SECONDS.slice(1));
  });

  it('grows and stays within what SQS can hide a message for', () => {
    for (let i = 1; i < DELIVERY_SCHEDULE_SECONDS.length; i++) {
      expect(DELIVERY_SCHEDULE_SECONDS[i]!).toBeGreaterThan(DELIVERY_SCHEDULE_SECONDS[i - 1]!);
    }
    expect(Math.max(...delaysWith(() => 0.999999))).toBeLessThanOrEqual(MAX_DELAY_SECONDS);
  });

  it('jitters each delay by at most ±20 %, and the total stays within ±20 % of the schedule', () => {
    const lowest = delaysWith(() => 0);
    const highest = delaysWith(() => 0.999999);
    const base = sum(DELIVERY_SCHEDULE_SECONDS.slice(1));
    expect(sum(lowest)).toBeGreaterThanOrEqual(Math.floor(base * (1 - DELIVERY_JITTER)) - lowest.length);
    expect(sum(highest)).toBeLessThanOrEqual(Math.ceil(base * (1 + DELIVERY_JITTER)) + highest.length);
    expect(lowest[0]).toBe(24); // 30 s − 20 %
    expect(highest[0]).toBe(36); // 30 s + 20 %
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_DELIVERY_ATTEMPTS - 1 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const delay = nextDelaySeconds(attempt, () => r)!;
          const base = DELIVERY_SCHEDULE_SECONDS[attempt]!;
          expect(Number.isInteger(delay)).toBe(true);
          expect(delay).toBeGreaterThanOrEqual(Math.max(1, Math.floor(base * (1 - DELIVERY_JITTER))));
          expect(delay).toBeLessThanOrEqual(Math.min(MAX_DELAY_SECONDS, Math.ceil(base * (1 + DELIVERY_JITTER))));
        },
      ),
    );
  });

  it('knows the last attempt and has no delay after it', () => {
    expect(isLastAttempt(1)).toBe(false);
    expect(isLastAttempt(MAX_DELIVERY_ATTEMPTS - 1)).toBe(false);
    expect(isLastAttempt(MAX_DELIVERY_ATTEMPTS)).toBe(true);
    expect(isLastAttempt(MAX_DELIVERY_ATTEMPTS + 1)).toBe(true);
    expect(isLastAttempt(3, 3)).toBe(true);
    expect(nextDelaySeconds(MAX_DELIVERY_ATTEMPTS)).toBeUndefined();
    expect(nextDelaySeconds(2, Math.random, 2)).toBeUndefined();
    expect(() => nextDelaySeconds(0)).toThrow(RangeError);
    expect(() => nextDelaySeconds(1.5)).toThrow(RangeError);
  });
});
