import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AttributeValue,
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type GlobalSecondaryIndex,
  PutItemCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mediaCors, type QueueDecl, type ResourceNames, scaledVisibility, type TableDecl } from '../wiring.ts';
import { emulatorCredentials, type LocalCredentials, privateDir, rememberedPorts, rememberPorts } from './data-dir.ts';
import { type Front, type FrontOptions, startFront } from './emulator-front.ts';
import { createLog, type Log } from './log.ts';

const require = createRequire(import.meta.url);

export const LOCAL_REGION = 'us-east-1';
export const LOCAL_ACCOUNT = '000000000000';

export interface Endpoints {
  dynamodb: string;
  s3: string;
  sqs: string;
}

export interface Emulators {
  endpoints: Endpoints;
  /** The ports of the verifying fronts: the only TCP ports the emulators are reached on. */
  ports: Required<EmulatorPorts>;
  /** The credentials every client of these emulators must sign with (the data dir's own). */
  credentials: LocalCredentials;
  dynamo: DynamoDBClient;
  s3: S3Client;
  sqs: SQSClient;
  stop(): Promise<void>;
}

/** A port per emulator; 0 picks a free one, a missing one reuses the data dir's remembered port (else a free one). */
export interface EmulatorPorts {
  dynamodb?: number;
  s3?: number;
  sqs?: number;
}

const listenOnSocket = (server: Server, path: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });

const close = (server: { close(cb: (err?: Error) => void): unknown }) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * fauxqs keys queues by their full URL and by default names them `http://sqs.<region>.localhost:<port>/...`,
 * a host Node cannot resolve; the SDK then sends requests to that host (it prefers the QueueUrl's origin). With
 * an empty `host`, fauxqs builds the URL from the request's Host header instead, so queue URLs are
 * `http://127.0.0.1:<port>/000000000000/<name>` — the same origin as AWS_ENDPOINT_URL_SQS (the front passes the
 * Host header on). Its store is not exported, so we load the class from the package's own file.
 */
async function startSqs(socketPath: string) {
  const fauxqs = await import('fauxqs');
  const { SqsStore, SqsQueue } = (await import(new URL('./sqs/sqsStore.js', import.meta.resolve('fauxqs')).href)) as {
    SqsStore: new () => { host: string };
    SqsQueue: { prototype: QueueTimers };
  };
  slowQueueTimers(SqsQueue.prototype);
  const sqsStore = new SqsStore();
  sqsStore.host = '';
  const app = fauxqs.buildApp({ logger: false, stores: { sqsStore } as never });
  await app.listen({ path: socketPath });
  return { stop: () => app.close() };
}

/** The part of fauxqs's queue that runs its timers while a long poll waits. */
interface QueueTimers {
  pollTimer?: NodeJS.Timeout;
  processTimers(): void;
  startPollTimerIfNeeded(): void;
}

/** How often a long-polled queue's timers run: visibility timeouts and delays are counted in whole seconds. */
const QUEUE_TIMER_MS = 250;

/**
 * fauxqs runs a queue's timers (visibility timeouts that ended, delayed messages due) every 20 ms while a receive
 * waits on it, and every queue-triggered function long-polls its queue all the time: about 500 wake-ups a second
 * for the runtime's queues, most of its CPU when idle. A new message wakes the waiting receive at once either way.
 */
function slowQueueTimers(queue: QueueTimers): void {
  queue.startPollTimerIfNeeded = function startPollTimerIfNeeded(this: QueueTimers) {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => this.processTimers(), QUEUE_TIMER_MS);
  };
}

/** The media bucket's CORS rule (the wiring's, as on AWS) in the XML s3rver reads; the front lets only presigned reads use it. */
const mediaCorsXml = () =>
  `<CORSConfiguration><CORSRule>${mediaCors.allowedOrigins.map((o) => `<AllowedOrigin>${o}</AllowedOrigin>`).join('')}` +
  `${mediaCors.allowedMethods.map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('')}` +
  `${mediaCors.allowedHeaders.map((h) => `<AllowedHeader>${h}</AllowedHeader>`).join('')}<MaxAgeSeconds>${mediaCors.maxAgeSeconds}</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

/**
 * A front on the asked port, else the remembered one, else a free one. A remembered port another program took
 * meanwhile is given up (with a warning: links naming it die); an asked one that is taken fails the start.
 */
async function openFront(options: FrontOptions, asked: number | undefined, remembered: number | undefined, log: Log): Promise<Front> {
  if (asked !== undefined || remembered === undefined) return startFront(options, asked ?? 0);
  try {
    return await startFront(options, remembered);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    log.warn('remembered emulator port is taken; using another (links that name the old one stop working)', {
      service: options.service,
      port: remembered,
    });
    return startFront(options, 0);
  }
}

type Stops = Array<() => Promise<unknown>>;

/**
 * Starts DynamoDB (dynalite on LevelDB), S3 (s3rver on disk) and SQS (fauxqs, in memory), each on a unix socket in
 * a private temporary directory, and behind each a front on 127.0.0.1 that admits only requests signed with the
 * data dir's credentials (./emulator-front.ts). The fronts' ports are remembered in the data dir.
 */
export async function startEmulators(dataDir: string, ports: EmulatorPorts, bucket: string, log: Log = createLog('silent')): Promise<Emulators> {
  const dynamoDir = join(dataDir, 'dynamodb');
  const s3Dir = join(dataDir, 's3');
  await privateDir(dynamoDir);
  await privateDir(s3Dir);
  const credentials = await emulatorCredentials(dataDir);
  const remembered = await rememberedPorts(dataDir);
  // Unix socket paths are limited to ~100 bytes, so not in the data dir; mkdtemp makes the directory 0700.
  const socketDir = await mkdtemp(join(tmpdir(), 'vidbot-emulators-'));
  const stops: Stops = [() => rm(socketDir, { recursive: true, force: true })];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => undefined);
  };
  try {
    const socket = (name: string) => join(socketDir, `${name}.sock`);
    await startDynamo(dynamoDir, socket('dynamodb'), stops);
    await startS3(s3Dir, socket('s3'), bucket, credentials, stops);
    const sqsServer = await startSqs(socket('sqs'));
    stops.push(() => sqsServer.stop());

    const bound = await openFronts({ credentials, socket, log }, ports, remembered, stops);
    await rememberPorts(dataDir, bound);
    const endpoints: Endpoints = {
      dynamodb: `http://127.0.0.1:${bound.dynamodb}`,
      s3: `http://127.0.0.1:${bound.s3}`,
      sqs: `http://127.0.0.1:${bound.sqs}`,
    };
    const { dynamo, s3, sqs } = emulatorClients(endpoints, credentials);
    return {
      endpoints,
      ports: bound,
      credentials,
      dynamo,
      s3,
      sqs,
      async stop() {
        dynamo.destroy();
        s3.destroy();
        sqs.destroy();
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function startDynamo(dynamoDir: string, socketPath: string, stops: Stops): Promise<void> {
  const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;
  const dynamoServer = dynalite({ path: dynamoDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await listenOnSocket(dynamoServer, socketPath);
  stops.push(() => close(dynamoServer));
}

async function startS3(s3Dir: string, socketPath: string, bucket: string, credentials: LocalCredentials, stops: Stops): Promise<void> {
  const S3rver = require('s3rver') as new (
    options: Record<string, unknown>,
  ) => { configureBuckets(): Promise<void>; listen(options: object): Promise<Server>; httpServer?: Server; close(): Promise<void> };
  // s3rver knows one dummy key and serves response-header overrides (a link's download name) only to a known one;
  // it checks no v4 signature itself, the front does.
  const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };
  DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const s3rver = new S3rver({ directory: s3Dir, silent: true, configureBuckets: [{ name: bucket, configs: [mediaCorsXml()] }] });
  await s3rver.configureBuckets();
  s3rver.httpServer = await s3rver.listen({ path: socketPath });
  stops.push(() => s3rver.close());
}

/** A verifying front per emulator (see openFront); the ports they listen on. */
async function openFronts(
  context: { credentials: LocalCredentials; socket: (name: string) => string; log: Log },
  ports: EmulatorPorts,
  remembered: EmulatorPorts,
  stops: Stops,
): Promise<Required<EmulatorPorts>> {
  const { credentials, socket, log } = context;
  const fronts = {} as Record<keyof Endpoints, Front>;
  for (const service of ['dynamodb', 's3', 'sqs'] as const) {
    fronts[service] = await openFront(
      { service, credentials, region: LOCAL_REGION, socketPath: socket(service), log },
      ports[service],
      remembered[service],
      log,
    );
    stops.push(() => fronts[service].close());
  }
  return { dynamodb: fronts.dynamodb.port, s3: fronts.s3.port, sqs: fronts.sqs.port };
}

/** SDK clients of the emulators, signing with the data dir's credentials. */
function emulatorClients(endpoints: Endpoints, credentials: LocalCredentials) {
  const common = {
    region: LOCAL_REGION,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED' as const,
    responseChecksumValidation: 'WHEN_REQUIRED' as const,
  };
  const dynamo = new DynamoDBClient({ ...common, endpoint: endpoints.dynamodb });
  const s3 = new S3Client({ ...common, endpoint: endpoints.s3, forcePathStyle: true });
  const sqs = new SQSClient({ ...common, endpoint: endpoints.sqs });
  return { dynamo, s3, sqs };
}

/**
 * Creates each table with its indexes, if missing. dynalite does not implement UpdateTimeToLive, so TTL
 * attributes are not declared: expired idempotency records simply stay (Powertools checks expiry itself).
 */
export async function ensureTables(dynamo: DynamoDBClient, tables: Record<string, TableDecl>, names: ResourceNames['table']) {
  for (const [name, decl] of Object.entries(tables)) {
    const TableName = names(name as never);
    // A data dir from before an index was declared: dynalite cannot add one (UpdateTable), so the table is
    // rebuilt with its items.
    let kept: Record<string, AttributeValue>[] | undefined;
    try {
      const { Table } = await dynamo.send(new DescribeTableCommand({ TableName }));
      const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
      if (Object.keys(decl.indexes ?? {}).every((index) => present.has(index))) continue;
      kept = [];
      let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
      do {
        const page = await dynamo.send(new ScanCommand({ TableName, ExclusiveStartKey }));
        kept.push(...(page.Items ?? []));
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      await dynamo.send(new DeleteTableCommand({ TableName }));
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    }
    const attributes = new Map<string, 'S' | 'N'>([[decl.partitionKey, 'S']]);
    if (decl.sortKey) attributes.set(decl.sortKey, 'S');
    const indexes: GlobalSecondaryIndex[] = Object.entries(decl.indexes ?? {}).map(([indexName, index]) => {
      attributes.set(index.partitionKey, 'S');
      if (index.sortKey) attributes.set(index.sortKey, index.sortKeyType ?? 'S');
      return {
        IndexName: indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          ...(index.sortKey ? [{ AttributeName: index.sortKey, KeyType: 'RANGE' as const }] : []),
        ],
        Projection: { ProjectionType: 'ALL' },
      };
    });
    await dynamo.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
        KeySchema: [
          { AttributeName: decl.partitionKey, KeyType: 'HASH' },
          ...(decl.sortKey ? [{ AttributeName: decl.sortKey, KeyType: 'RANGE' as const }] : []),
        ],
        ...(indexes.length ? { GlobalSecondaryIndexes: indexes } : {}),
      }),
    );
    for (const Item of kept ?? []) await dynamo.send(new PutItemCommand({ TableName, Item }));
  }
}

export interface ProvisionedQueue {
  url: string;
  arn: string;
  dlqUrl: string;
  dlqArn: string;
  visibilityTimeoutSeconds: number;
  maxReceiveCount: number;
}

/** Creates each queue and its DLQ with the declared visibility timeout and redrive policy (idempotent). */
export async function ensureQueues(
  sqs: SQSClient,
  queues: Record<string, QueueDecl>,
  queueName: (name: string) => string,
  visibilityScale: number,
  log: Log,
): Promise<Record<string, ProvisionedQueue>> {
  const result: Record<string, ProvisionedQueue> = {};
  const arnOf = async (QueueUrl: string) =>
    (await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
  for (const [name, decl] of Object.entries(queues)) {
    const dlq = await sqs.send(new CreateQueueCommand({ QueueName: `${queueName(name)}-dlq`, Attributes: { MessageRetentionPeriod: '1209600' } }));
    const dlqArn = await arnOf(dlq.QueueUrl!);
    const visibility = scaledVisibility(decl.visibilityTimeoutSeconds, visibilityScale);
    const attributes = {
      VisibilityTimeout: String(visibility),
      RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: decl.maxReceiveCount }),
    };
    const queue = await sqs.send(new CreateQueueCommand({ QueueName: queueName(name) }));
    await sqs.send(new SetQueueAttributesCommand({ QueueUrl: queue.QueueUrl!, Attributes: attributes }));
    result[name] = {
      url: queue.QueueUrl!,
      arn: await arnOf(queue.QueueUrl!),
      dlqUrl: dlq.QueueUrl!,
      dlqArn,
      visibilityTimeoutSeconds: visibility,
      maxReceiveCount: decl.maxReceiveCount,
    };
    if (visibility !== decl.visibilityTimeoutSeconds) {
      log.info('queue visibility timeout scaled for this run', { queue: name, declared: decl.visibilityTimeoutSeconds, local: visibility });
    }
  }
  return result;
}
