import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Server } from 'node:http';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, DynamoDBClient, PutItemCommand, ScanCommand, type AttributeValue, type GlobalSecondaryIndex } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { S3Client } from '@aws-sdk/client-s3';
import { mediaCors, type QueueDecl, type ResourceNames, type TableDecl } from '../wiring.ts';
import type { Log } from './log.ts';

const require = createRequire(import.meta.url);

/** s3rver only accepts signatures made with its built-in dummy key pair; dynalite and fauxqs accept anything. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_ACCOUNT = '000000000000';

export interface Endpoints {
  dynamodb: string;
  s3: string;
  sqs: string;
}

export interface Emulators {
  endpoints: Endpoints;
  dynamo: DynamoDBClient;
  s3: S3Client;
  sqs: SQSClient;
  stop(): Promise<void>;
}

export interface EmulatorPorts {
  dynamodb?: number;
  s3?: number;
  sqs?: number;
}

const listen = (server: Server, port: number) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

const close = (server: { close(cb: (err?: Error) => void): unknown }) =>
  new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * fauxqs keys queues by their full URL and by default names them `http://sqs.<region>.localhost:<port>/...`,
 * a host Node cannot resolve; the SDK then sends requests to that host (it prefers the QueueUrl's origin). With
 * an empty `host`, fauxqs builds the URL from the request's Host header instead, so queue URLs are
 * `http://127.0.0.1:<port>/000000000000/<name>` — the same origin as AWS_ENDPOINT_URL_SQS. Its store is not
 * exported, so we load the class from the package's own file.
 */
async function startSqs(port: number) {
  const fauxqs = await import('fauxqs');
  const { SqsStore } = (await import(new URL('./sqs/sqsStore.js', import.meta.resolve('fauxqs')).href)) as {
    SqsStore: new () => { host: string };
  };
  const sqsStore = new SqsStore();
  sqsStore.host = '';
  const app = fauxqs.buildApp({ logger: false, stores: { sqsStore } as never });
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${address.port}`, stop: () => app.close() };
}

/** The media bucket's CORS rule (the wiring's, as on AWS) in the XML s3rver reads. */
const mediaCorsXml = () =>
  `<CORSConfiguration><CORSRule>${mediaCors.allowedOrigins.map((o) => `<AllowedOrigin>${o}</AllowedOrigin>`).join('')}` +
  `${mediaCors.allowedMethods.map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('')}<MaxAgeSeconds>${mediaCors.maxAgeSeconds}</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

/** Starts DynamoDB (dynalite on LevelDB), S3 (s3rver on disk) and SQS (fauxqs, in memory) on 127.0.0.1. */
export async function startEmulators(dataDir: string, ports: EmulatorPorts, bucket: string): Promise<Emulators> {
  const dynamoDir = join(dataDir, 'dynamodb');
  const s3Dir = join(dataDir, 's3');
  await mkdir(dynamoDir, { recursive: true });
  await mkdir(s3Dir, { recursive: true });

  const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;
  const dynamoServer = dynalite({ path: dynamoDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const dynamoPort = await listen(dynamoServer, ports.dynamodb ?? 0);

  const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> };
  const s3rver = new S3rver({ address: '127.0.0.1', port: ports.s3 ?? 0, directory: s3Dir, silent: true, configureBuckets: [{ name: bucket, configs: [mediaCorsXml()] }] });
  const s3Address = await s3rver.run();

  const sqsServer = await startSqs(ports.sqs ?? 0);

  const endpoints: Endpoints = {
    dynamodb: `http://127.0.0.1:${dynamoPort}`,
    s3: `http://127.0.0.1:${s3Address.port}`,
    sqs: sqsServer.url,
  };
  const common = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, requestChecksumCalculation: 'WHEN_REQUIRED' as const, responseChecksumValidation: 'WHEN_REQUIRED' as const };
  const dynamo = new DynamoDBClient({ ...common, endpoint: endpoints.dynamodb });
  const s3 = new S3Client({ ...common, endpoint: endpoints.s3, forcePathStyle: true });
  const sqs = new SQSClient({ ...common, endpoint: endpoints.sqs });
  return {
    endpoints,
    dynamo,
    s3,
    sqs,
    async stop() {
      dynamo.destroy();
      s3.destroy();
      sqs.destroy();
      await sqsServer.stop();
      await s3rver.close();
      await close(dynamoServer);
    },
  };
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

/** Local visibility timeout: the declared one, optionally scaled down for tests (SQS counts whole seconds). */
const scaledVisibility = (seconds: number, scale: number) => Math.max(1, Math.round(seconds * scale));

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
