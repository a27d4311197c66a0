import { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { dimensionNames, METRICS_NAMESPACE, metricNames, SERVICE_NAME } from '#commons/metric-names';

/**
 * The functions' own metrics (EMF, written by functions/commons/metrics.ts) as CloudWatch metrics for the
 * dashboard and the alarms: the same namespace, names and dimension sets as the functions write them.
 */
export type ServiceMetricName = keyof typeof metricNames;

export interface ServiceMetricOptions {
  /** @default 'Sum' */
  readonly statistic?: string;
  /** @default 5 minutes */
  readonly period?: Duration;
  /** Dimensions besides `service`. @default none */
  readonly dimensions?: Record<string, string>;
  /** @default the metric's name */
  readonly label?: string;
}

export function serviceMetric(name: ServiceMetricName, options: ServiceMetricOptions = {}): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: metricNames[name],
    dimensionsMap: { [dimensionNames.service]: SERVICE_NAME, ...options.dimensions },
    statistic: options.statistic ?? 'Sum',
    period: options.period ?? Duration.minutes(5),
    label: options.label,
  });
}

/** VideosFailed of one error code. */
export const videosFailedWith = (code: string, options: Omit<ServiceMetricOptions, 'dimensions'> = {}) =>
  serviceMetric('videosFailed', { label: code, ...options, dimensions: { [dimensionNames.errorCode]: code } });

/** QueueMessageAge of one queue (by its wiring name). */
export const queueMessageAge = (queue: string, options: Omit<ServiceMetricOptions, 'dimensions'> = {}) =>
  serviceMetric('queueMessageAge', { statistic: 'Maximum', label: queue, ...options, dimensions: { [dimensionNames.queue]: queue } });

/** VideosFailed for every error code seen, one line each (a search: codes are not listed here). */
export const videosFailedByCode = (period = Duration.minutes(5)) =>
  new MathExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},${dimensionNames.service},${dimensionNames.errorCode}} MetricName="${metricNames.videosFailed}" ${dimensionNames.service}="${SERVICE_NAME}"', 'Sum', ${period.toSeconds()})`,
    label: '',
    period,
  });
