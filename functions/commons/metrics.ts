/**
 * The one Metrics instance (Powertools, CloudWatch embedded metric format) and what the service counts, in the
 * domain's words. Metrics are buffered during an invocation and written to stdout as one EMF JSON document when
 * the shared wrapper (functions/commons/invocation.ts) flushes them; CloudWatch Logs turns each into metrics
 * of the namespace Vidbot. Names and dimensions: functions/commons/metric-names.ts.
 */
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { SQSRecord } from 'aws-lambda';
import { logger } from './logger.ts';
import { dimensionNames, METRICS_NAMESPACE, metricNames, SERVICE_NAME } from './metric-names.ts';

// Its own warnings (an invalid dimension, say) become structured log lines.
const options = { namespace: METRICS_NAMESPACE, serviceName: process.env.POWERTOOLS_SERVICE_NAME || SERVICE_NAME, logger };
const metrics = new Metrics(options);
/** Queue ages have a dimension (queue) the invocation's other metrics must not get: a buffer of their own. */
const queueAgeMetrics = new Metrics(options);

/** Writes the invocation's buffered metrics as one EMF document; nothing when none were recorded. */
export function flushMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}

export function recordVideoCreated(): void {
  metrics.addMetric(metricNames.videosCreated, MetricUnit.Count, 1);
}

export function recordVideoCompleted(): void {
  metrics.addMetric(metricNames.videosCompleted, MetricUnit.Count, 1);
}

/**
 * A video failed with `code`: a document of its own (its dimension set differs from the invocation's), written at
 * once, by code and as part of the total over every code.
 */
export function recordVideoFailed(code: string): void {
  const failed = metrics.singleMetric();
  failed.addDimension(dimensionNames.errorCode, code);
  // An extra dimension set of the defaults alone (service): the total the failure-rate alarm reads.
  failed.addDimensions({});
  failed.addMetric(metricNames.videosFailed, MetricUnit.Count, 1);
}

/** A clip rendered (not found in the cache): how long it took, and how fast against its own length. */
export function recordClipRendered(renderMs: number, durationSeconds: number): void {
  const seconds = renderMs / 1000;
  metrics.addMetric(metricNames.clipRenderSeconds, MetricUnit.Seconds, seconds);
  if (seconds > 0 && durationSeconds > 0) metrics.addMetric(metricNames.renderSpeed, MetricUnit.NoUnit, durationSeconds / seconds);
}

/** One webhook delivery attempt and whether it failed (0 or 1, so the failures' average is the failure rate). */
export function recordWebhookAttempt(delivered: boolean): void {
  metrics.addMetric(metricNames.webhookAttempts, MetricUnit.Count, 1);
  metrics.addMetric(metricNames.webhookFailures, MetricUnit.Count, delivered ? 0 : 1);
}

/**
 * How long each message of a batch waited in `queue` before this receive (SentTimestamp is when it was sent, so
 * a retried message counts its earlier attempts too). One document per batch, its own dimension set (queue).
 */
export function recordQueueAges(queue: string, records: readonly Pick<SQSRecord, 'attributes'>[], now = Date.now()): void {
  const ages = records
    .map((record) => Number(record.attributes?.SentTimestamp))
    .filter((sent) => Number.isFinite(sent) && sent > 0)
    .map((sent) => Math.max(0, (now - sent) / 1000));
  if (ages.length === 0) return;
  queueAgeMetrics.addDimension(dimensionNames.queue, queue);
  for (const age of ages) queueAgeMetrics.addMetric(metricNames.queueMessageAge, MetricUnit.Seconds, age);
  queueAgeMetrics.publishStoredMetrics();
}
