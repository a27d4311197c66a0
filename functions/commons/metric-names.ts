/**
 * The business metrics vidbot emits (CloudWatch embedded metric format, through functions/commons/metrics.ts)
 * under the names the stack's dashboard and alarms read them by. Imports nothing: infra and functions share it.
 *
 * Dimensions, the same everywhere:
 * - every metric has `service` (POWERTOOLS_SERVICE_NAME: "vidbot"), Powertools' default dimension;
 * - VideosFailed also has `error_code` (the failed video's public error code), and each of its documents carries
 *   the `service`-only set too: the total over every code, which the failure-rate alarm reads;
 * - QueueMessageAge also has `queue`, the wiring's name of the queue (render, assemble, notify);
 * - nothing else. Video, tenant and clip ids are never dimensions (each value would be a metric of its own, paid
 *   for monthly): they are in the log lines next to the metric.
 */
export const METRICS_NAMESPACE = 'Vidbot';
/** The `service` dimension's value and every function's POWERTOOLS_SERVICE_NAME. */
export const SERVICE_NAME = 'vidbot';

export const metricNames = {
  /** Count: a video accepted (202), once per video (an idempotent replay does not count again). */
  videosCreated: 'VideosCreated',
  /** Count: a video completed (its output stored), once per video. */
  videosCompleted: 'VideosCompleted',
  /** Count: a video failed, once per video, by `error_code`. */
  videosFailed: 'VideosFailed',
  /** Seconds: wall-clock time of one clip render (background fetch, speech, frames, encode, upload); not cache hits. */
  clipRenderSeconds: 'ClipRenderSeconds',
  /** Seconds of clip per second of rendering (above 1: faster than real time). */
  renderSpeed: 'RenderSpeed',
  /** Count: one webhook delivery attempt. */
  webhookAttempts: 'WebhookAttempts',
  /** Count: 1 for a failed attempt, 0 for a delivered one (so its average is the failure rate). */
  webhookFailures: 'WebhookFailures',
  /** Seconds: how long a message waited in its queue before this receive (from the record's SentTimestamp). */
  queueMessageAge: 'QueueMessageAge',
} as const;

export const dimensionNames = { service: 'service', errorCode: 'error_code', queue: 'queue' } as const;

/**
 * Failure codes that are the service's fault rather than the caller's input (a background that cannot be fetched
 * or decoded, a missing bot, a render over its budget): the render failure-rate alarm counts only these.
 */
export const SERVICE_FAULT_CODES = ['render_failed', 'assembly_failed', 'render_expired', 'deadline_exceeded'] as const;
