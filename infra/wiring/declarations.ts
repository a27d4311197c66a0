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

/** The Lambda layers of layers/ (infra/wiring/functions.ts `layers`). */
export type LayerName = 'media';

interface FunctionDeclBase {
  /** Module exporting `handler`, relative to the repository root. */
  entry: string;
  memoryMb: number;
  timeoutSeconds: number;
  tables?: Partial<Record<TableName, Access>>;
  /**
   * 'send': the URL and permission to send. 'consume': only the URL, for the queue that triggers the function
   * (its event source mapping grants consumption), e.g. to change a message's visibility.
   */
  queues?: Partial<Record<QueueName, 'send' | 'consume'>>;
  /** Dead-letter queues of these queues the function may read (receive and hide, never delete). */
  deadLetters?: readonly QueueName[];
  /**
   * The media bucket. 'readWriteDelete' may delete any object; `{ access, delete, put }` may delete (`delete`) or
   * write (`put`) only under the given key prefixes (each ending in "/"), e.g. what the function itself writes,
   * beside `access` on every object (without it, only those). 'name' grants nothing: the function is only told
   * the bucket's name (the console, whose page may reach the bucket's origin and no other).
   */
  bucket?: Access | 'readWriteDelete' | 'name' | { access?: Access; delete?: readonly string[]; put?: readonly string[] };
  /** Extra plain environment, e.g. feature switches. */
  environment?: Record<string, string>;
  /** Needs Amazon Polly (speech synthesis). */
  polly?: boolean;
  /**
   * Lists, checks or speaks voices: told through SPEECH_ENGINE whether the deployment uses Polly
   * (speechEngines: Polly on AWS, espeak-ng locally).
   */
  voices?: boolean;
  /** Lambda layers from layers/ that the function needs. */
  layers?: LayerName[];
  /**
   * Size of the function's /tmp in MiB, 512 to 10240. Only functions that write media there need more than
   * Lambda's default.
   * @default 512
   */
  ephemeralStorageMb?: number;
}

export type FunctionDecl = FunctionDeclBase &
  (
    | { trigger: 'authorizer' }
    | { trigger: 'http'; routes: Route[] }
    | {
        trigger: 'queue';
        queue: QueueName;
        batchSize: number;
        maxConcurrency?: number;
        /**
         * Execution environments in the local runtime, for a function that waits rather than computes; others get
         * the runtime's CPU-sized default (`concurrency`, capped by maxConcurrency).
         */
        localConcurrency?: number;
      }
    | { trigger: 'schedule'; everyMinutes: number }
  ) & {
    /** Container image: the directory holding the Dockerfile (built from the render bundle). */
    image?: string;
  };
