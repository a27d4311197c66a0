import { Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  type Alarm,
  AlarmStatusWidget,
  AlarmWidget,
  Dashboard,
  GraphWidget,
  type IMetric,
  type IWidget,
  TextWidget,
} from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { ServiceAlarms } from './service-alarms.ts';
import { queueMessageAge, serviceMetric, videosFailedByCode } from './service-metrics.ts';
import type { WorkQueue } from './work-queue.ts';

export interface OperationsDashboardProps {
  /** The service's functions, by their wiring names. */
  readonly functions: Readonly<Record<string, IFunction>>;
  /** The work queues, by their wiring names. */
  readonly queues: Readonly<Record<string, WorkQueue>>;
  /** The API's stage. */
  readonly apiStage: Stage;
  readonly serviceAlarms: ServiceAlarms;
  /**
   * The dashboard's name.
   * @default - `<stack name>-operations`
   */
  readonly dashboardName?: string;
}

const PERIOD = Duration.minutes(5);
const HEIGHT = 6;

/**
 * One CloudWatch dashboard for whoever runs vidbot: what happens to videos (created, completed, failed by code),
 * how renders go (seconds, speed), webhooks, queues (age, depth, dead letters), the API (requests, errors,
 * latency) and the functions (errors, duration), with the state of every alarm on top.
 */
export class OperationsDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsDashboardProps) {
    super(scope, id);
    const queues = Object.entries(props.queues);
    const alarms = props.serviceAlarms;
    const rows: IWidget[][] = [
      ...overviewRows(alarms, queues),
      videosRow(alarms),
      rendersRow(),
      webhooksRow(alarms, queues),
      queuesRow(queues),
      apiRow(props.apiStage, alarms),
      functionsRow(Object.entries(props.functions)),
    ];

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName ?? `${Stack.of(this).stackName}-operations`,
      widgets: rows,
    });
  }
}

type Queues = [string, WorkQueue][];

const graph = (title: string, left: IMetric[], options: { width?: number; leftLabel?: string; right?: IMetric[] } = {}) =>
  new GraphWidget({
    title,
    left,
    right: options.right,
    width: options.width ?? 8,
    height: HEIGHT,
    period: PERIOD,
    leftYAxis: { label: options.leftLabel, min: 0 },
  });

/** The title, and the state of every alarm. */
function overviewRows(alarms: ServiceAlarms, queues: Queues): IWidget[][] {
  const allAlarms: Alarm[] = [
    alarms.renderFailureRate,
    alarms.webhookFailureRate,
    alarms.api5xxRate,
    ...queues.flatMap(([, q]) => [q.oldestMessageAlarm, q.deadLetterAlarm]),
  ];
  return [
    [
      new TextWidget({
        markdown: '# vidbot\nVideos, renders, webhooks, queues, API and functions. Thresholds: infra/wiring.ts (queues, observability).',
        width: 24,
        height: 2,
      }),
    ],
    [new AlarmStatusWidget({ title: 'Alarms', alarms: allAlarms, width: 24, height: 4 })],
  ];
}

function videosRow(alarms: ServiceAlarms): IWidget[] {
  return [
    graph('Videos created, completed and failed', [
      serviceMetric('videosCreated', { label: 'created' }),
      serviceMetric('videosCompleted', { label: 'completed' }),
      serviceMetric('videosFailed', { label: 'failed' }),
    ]),
    graph('Videos failed by error code', [videosFailedByCode(PERIOD)]),
    new AlarmWidget({
      title: 'Render failure rate (%): service faults per video created',
      alarm: alarms.renderFailureRate,
      width: 8,
      height: HEIGHT,
    }),
  ];
}

function rendersRow(): IWidget[] {
  return [
    graph(
      'Clip render seconds',
      [
        serviceMetric('clipRenderSeconds', { statistic: 'Average', label: 'average' }),
        serviceMetric('clipRenderSeconds', { statistic: 'p90', label: 'p90' }),
        serviceMetric('clipRenderSeconds', { statistic: 'Maximum', label: 'maximum' }),
      ],
      { leftLabel: 'seconds' },
    ),
    graph('Render speed (seconds of video per second)', [
      serviceMetric('renderSpeed', { statistic: 'Average', label: 'average' }),
      serviceMetric('renderSpeed', { statistic: 'Minimum', label: 'slowest' }),
    ]),
    graph('Clips rendered', [serviceMetric('clipRenderSeconds', { statistic: 'SampleCount', label: 'rendered (not from the cache)' })]),
  ];
}

function webhooksRow(alarms: ServiceAlarms, queues: Queues): IWidget[] {
  return [
    graph('Webhook attempts and failures', [
      serviceMetric('webhookAttempts', { label: 'attempts' }),
      serviceMetric('webhookFailures', { label: 'failures' }),
    ]),
    new AlarmWidget({ title: 'Webhook failure rate (%)', alarm: alarms.webhookFailureRate, width: 8, height: HEIGHT }),
    graph(
      'Queue wait at receive (QueueMessageAge, max)',
      queues.map(([name]) => queueMessageAge(name)),
      { leftLabel: 'seconds' },
    ),
  ];
}

function queuesRow(queues: Queues): IWidget[] {
  return [
    graph(
      'Oldest message age',
      queues.map(([name, q]) => q.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum', label: name })),
      { leftLabel: 'seconds' },
    ),
    graph(
      'Queue depth (visible, in flight)',
      queues.flatMap(([name, q]) => [
        q.queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: `${name} visible` }),
        q.queue.metricApproximateNumberOfMessagesNotVisible({ period: PERIOD, statistic: 'Maximum', label: `${name} in flight` }),
      ]),
    ),
    graph(
      'Dead-letter queue depth',
      queues.map(([name, q]) =>
        q.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: `${name} DLQ` }),
      ),
    ),
  ];
}

function apiRow(stage: Stage, alarms: ServiceAlarms): IWidget[] {
  return [
    graph('API requests, 4xx and 5xx', [
      stage.metricCount({ period: PERIOD, statistic: 'SampleCount', label: 'requests' }),
      stage.metricClientError({ period: PERIOD, statistic: 'Sum', label: '4xx' }),
      stage.metricServerError({ period: PERIOD, statistic: 'Sum', label: '5xx' }),
    ]),
    graph(
      'API latency',
      [
        stage.metricLatency({ period: PERIOD, statistic: 'p50', label: 'p50' }),
        stage.metricLatency({ period: PERIOD, statistic: 'p90', label: 'p90' }),
        stage.metricLatency({ period: PERIOD, statistic: 'p99', label: 'p99' }),
        stage.metricIntegrationLatency({ period: PERIOD, statistic: 'p90', label: 'integration p90' }),
      ],
      { leftLabel: 'ms' },
    ),
    new AlarmWidget({ title: 'API 5xx rate (%)', alarm: alarms.api5xxRate, width: 8, height: HEIGHT }),
  ];
}

function functionsRow(functions: [string, IFunction][]): IWidget[] {
  return [
    graph(
      'Function errors',
      functions.map(([name, fn]) => fn.metricErrors({ period: PERIOD, statistic: 'Sum', label: name })),
      { width: 12 },
    ),
    graph(
      'Function duration (p90)',
      functions.map(([name, fn]) => fn.metricDuration({ period: PERIOD, statistic: 'p90', label: name })),
      { width: 12, leftLabel: 'ms' },
    ),
  ];
}
