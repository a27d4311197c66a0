import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueDecl } from '../wiring.ts';

export interface WorkQueueProps {
  /** The queue's declaration in infra/wiring.ts. */
  readonly decl: QueueDecl;
  /** Topic the queue's alarms notify. */
  readonly alarmTopic: ITopic;
}

/**
 * A work queue from the wiring with its dead-letter queue and two alarms: one as soon as anything lands in the
 * dead-letter queue (work the service gave up on: a clip never rendered, a webhook never delivered), and one when
 * the oldest message has waited longer than the wiring's `oldestMessageAlarmSeconds` (work falling behind).
 */
export class WorkQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly deadLetterAlarm: Alarm;
  readonly oldestMessageAlarm: Alarm;

  constructor(scope: Construct, id: string, props: WorkQueueProps) {
    super(scope, id);

    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // The longest SQS allows: time to look at what failed and redrive it.
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of its work queue; it has the alarm instead of a DLQ.',
    });

    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(props.decl.visibilityTimeoutSeconds),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.decl.maxReceiveCount },
    });

    this.deadLetterAlarm = new Alarm(this, 'DeadLetterAlarm', {
      alarmDescription: `Messages in the dead-letter queue of the ${id} queue: work that failed every attempt.`,
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.deadLetterAlarm.addAlarmAction(new SnsAction(props.alarmTopic));

    const oldest = props.decl.oldestMessageAlarmSeconds;
    if (!(Number.isInteger(oldest) && oldest > 0))
      throw new Error(`oldestMessageAlarmSeconds must be a positive whole number of seconds, got ${oldest}`);
    this.oldestMessageAlarm = new Alarm(this, 'OldestMessageAlarm', {
      alarmDescription: `The oldest message of the ${id} queue has waited over ${oldest} s: its work is falling behind.`,
      metric: this.queue.metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' }),
      threshold: oldest,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.oldestMessageAlarm.addAlarmAction(new SnsAction(props.alarmTopic));
  }
}
