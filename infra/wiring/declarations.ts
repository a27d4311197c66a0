import type { QueueName, TableName } from '#commons/env-names';

/** The shapes of the wiring's declarations (infra/wiring.ts): tables, queues, routes, alarms, resource names. */

export type Access = 'read' | 'write' | 'readWrite';

export interface TableDecl {
  partitionKey: string;
  sortKey?: string;
  /** Attribute holding an epoch-seconds expiry (DynamoDB TTL). */
  ttlAttribute?: string;
  indexes?: Record<string, { partitionKey: string; sortKey?: string; sortKeyType?: 'S' | 'N' }>;
}

export interface QueueDecl {
  /** How long a received message stays hidden; must exceed the consumer's timeout. */
  visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the queue's dead-letter queue. */
  maxReceiveCount: number;
  /**
   * Alarm when the queue's oldest message (SQS ApproximateAgeOfOldestMessage, which leaves out messages already
   * received three times or more) has waited longer than this, for two 5-minute periods in a row.
   */
  oldestMessageAlarmSeconds: number;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /**
   * The path as callers send it. A trailing slash is kept here because the handler tells the two operations
   * apart by it; API Gateway has no resource for it and delivers `/v1/bot/` to the `/v1/bot` resource.
   */
  path: string;
  /** Routes are authorised by the bearer-key authorizer unless this says otherwise. */
  auth?: 'none';
}

/** An answer API Gateway gives itself, in our error shape. */
export interface GatewayResponseDecl {
  /** Its status; absent keeps API Gateway's own (the DEFAULT_4XX/5XX catch-alls). */
  status?: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
}

/**
 * A rate alarm: more than `percent` % of the events of a `periodMinutes` period went wrong, `evaluationPeriods`
 * periods in a row; a period with fewer than `minimum` events counts as 0 % (one failure of two is not a trend).
 */
export interface RateAlarmDecl {
  percent: number;
  minimum: number;
  periodMinutes: number;
  evaluationPeriods: number;
}

/** Physical names of the resources, as the CDK stack or the local runtime created them. */
export interface ResourceNames {
  table: (name: TableName) => string;
  queueUrl: (name: QueueName) => string;
  deadLetterQueueUrl: (name: QueueName) => string;
  bucket: string;
}
