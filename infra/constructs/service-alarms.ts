import { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { SERVICE_FAULT_CODES } from '#commons/metric-names';
import { observability, type RateAlarmDecl } from '../wiring.ts';
import { serviceMetric, videosFailedWith } from './service-metrics.ts';

export interface ServiceAlarmsProps {
  /** Topic every alarm notifies (the one of the dead-letter alarms). */
  readonly alarmTopic: ITopic;
  /** The API's stage: its requests and 5xx answers. */
  readonly apiStage: Stage;
  /**
   * Thresholds.
   * @default - `observability` of infra/wiring.ts
   */
  readonly thresholds?: { readonly [K in keyof typeof observability]: RateAlarmDecl };
}

/**
 * The service's rate alarms, next to each queue's own (dead letters, oldest message; see work-queue.ts): videos
 * failing for our reasons, webhook attempts failing, API answering 5xx. Each is metric math, a percentage of
 * what happened in the period, judged only above a minimum number of events.
 */
export class ServiceAlarms extends Construct {
  readonly renderFailureRate: Alarm;
  readonly webhookFailureRate: Alarm;
  readonly api5xxRate: Alarm;

  constructor(scope: Construct, id: string, props: ServiceAlarmsProps) {
    super(scope, id);
    const thresholds = props.thresholds ?? observability;
    const topic = props.alarmTopic;

    const render = thresholds.renderFailureRate;
    this.renderFailureRate = rateAlarm(this, 'RenderFailureRateAlarm', {
      decl: render,
      description: `Over ${render.percent} % of the videos created in ${render.periodMinutes} min failed for the service's own reasons (${SERVICE_FAULT_CODES.join(', ')}).`,
      failures: SERVICE_FAULT_CODES.map((code) => videosFailedWith(code, { period: minutes(render) })),
      total: serviceMetric('videosCreated', { period: minutes(render) }),
      topic,
    });

    const webhook = thresholds.webhookFailureRate;
    this.webhookFailureRate = rateAlarm(this, 'WebhookFailureRateAlarm', {
      decl: webhook,
      description: `Over ${webhook.percent} % of webhook delivery attempts failed, ${webhook.evaluationPeriods} x ${webhook.periodMinutes} min in a row.`,
      failures: [serviceMetric('webhookFailures', { period: minutes(webhook) })],
      total: serviceMetric('webhookAttempts', { period: minutes(webhook) }),
      topic,
    });

    const api = thresholds.api5xxRate;
    this.api5xxRate = rateAlarm(this, 'Api5xxRateAlarm', {
      decl: api,
      description: `Over ${api.percent} % of API requests answered 5xx, ${api.evaluationPeriods} x ${api.periodMinutes} min in a row.`,
      failures: [props.apiStage.metricServerError({ period: minutes(api), statistic: 'Sum' })],
      total: props.apiStage.metricCount({ period: minutes(api), statistic: 'SampleCount' }),
      topic,
    });
  }
}

const minutes = (decl: RateAlarmDecl) => Duration.minutes(decl.periodMinutes);

/** 100 x failures / total, or 0 below the minimum total: the expression every rate alarm plots and judges. */
function rateExpression(failures: readonly IMetric[], total: IMetric, decl: RateAlarmDecl, label: string): MathExpression {
  const usingMetrics: Record<string, IMetric> = { total };
  for (const [i, metric] of failures.entries()) usingMetrics[`f${i}`] = metric;
  const sum = failures.map((_, i) => `FILL(f${i}, 0)`).join(' + ');
  return new MathExpression({
    expression: `IF(total >= ${decl.minimum}, 100 * (${sum}) / total, 0)`,
    usingMetrics,
    period: Duration.minutes(decl.periodMinutes),
    label,
  });
}

function rateAlarm(
  scope: Construct,
  id: string,
  options: { decl: RateAlarmDecl; description: string; failures: IMetric[]; total: IMetric; topic: ITopic },
): Alarm {
  const { decl } = options;
  if (!(decl.percent > 0 && decl.percent <= 100)) throw new Error(`${id}: percent must be above 0 and at most 100, got ${decl.percent}`);
  for (const key of ['minimum', 'periodMinutes', 'evaluationPeriods'] as const) {
    if (!(Number.isInteger(decl[key]) && decl[key] >= 1)) throw new Error(`${id}: ${key} must be a whole number from 1, got ${decl[key]}`);
  }
  const alarm = new Alarm(scope, id, {
    alarmDescription: `${options.description} Judged from ${decl.minimum} events a period.`,
    metric: rateExpression(options.failures, options.total, decl, `${id.replace(/Alarm$/, '')} (%)`),
    threshold: decl.percent,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: decl.evaluationPeriods,
    // No traffic is not a failure.
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(new SnsAction(options.topic));
  return alarm;
}
