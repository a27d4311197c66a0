/**
 * API Gateway's usage-plan throttle, per API key: a token bucket holding up to `burstLimit` requests, refilled at
 * `rateLimit` a second. Written out rather than taken from a rate-limiting package because it must behave like
 * API Gateway's bucket (burst capacity, steady refill, no queueing), which is these few lines.
 */
export interface Throttle {
  rateLimit: number;
  burstLimit: number;
}

export class UsagePlanBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly throttle: Throttle,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    if (!(throttle.rateLimit > 0) || !(throttle.burstLimit >= 1))
      throw new Error(`a usage plan needs a rate above 0 and a burst of at least 1, got ${JSON.stringify(throttle)}`);
  }

  /** Takes one request from the key's bucket: 0 when allowed, otherwise the seconds until it would be (at least 1). */
  take(usageKey: string): number {
    const now = this.nowMs();
    const bucket = this.buckets.get(usageKey) ?? { tokens: this.throttle.burstLimit, at: now };
    bucket.tokens = Math.min(this.throttle.burstLimit, bucket.tokens + ((now - bucket.at) / 1000) * this.throttle.rateLimit);
    bucket.at = now;
    this.buckets.set(usageKey, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.throttle.rateLimit));
  }
}
