/**
 * The run behind test/integration/infra/grants.test.ts: the synthesised stack, the local emulators with the
 * wiring's tables and queues (seeded), every function's real handler loaded in this process with its AWS calls
 * recorded as that function's, and the calls the scenarios (test/support/grants-scenarios.ts) make through them.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { envNames } from '#commons/env-names';
import { type Bot, BUILT_IN_BOTS } from '#domain/bot';
import { type Emulators, ensureQueues, ensureTables, LOCAL_REGION, type ProvisionedQueue, startEmulators } from '#infra/local/emulators.ts';
import { createLog } from '#infra/local/log.ts';
import { toSqsRecord } from '#infra/local/poller.ts';
import { localNames, REPO_ROOT } from '#infra/local/runtime.ts';
import { type DevTenant, seedBots, seedDevTenant } from '#infra/local/seed.ts';
import type { VidbotStack } from '#infra/stack.ts';
import {
  environmentFor,
  type FunctionDecl,
  type FunctionName,
  functions,
  type QueueName,
  queues,
  type ResourceNames,
  type TableName,
  tables,
} from '#infra/wiring.ts';
import { type AwsCall, AwsCallRecorder } from './aws-calls.ts';
import { lambdaContext, restEvent } from './events.ts';
import { type Arns, arnOfResource, type Resources } from './iam-needs.ts';
import { synthStack } from './synth.ts';

// --- The run ------------------------------------------------------------------------------------------------

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
export const functionNames = Object.keys(functions) as FunctionName[];

export const recorder = new AwsCallRecorder();
export let stack: VidbotStack;
export let resources: Resources;
export let emulators: Emulators;
export let provisioned: Record<string, ProvisionedQueue>;
export let doc: DynamoDBDocumentClient;
export let tenant: DevTenant;
export let dataDir: string;
const handlers = {} as Record<FunctionName, (event: unknown, context: unknown) => Promise<any>>;
export const invoked = new Set<FunctionName>();
export const videoIds: Record<string, string> = {};
export let arns: Arns;

export const names: ResourceNames = {
  table: (name) => localNames.table(name),
  queueUrl: (name) => provisioned[name]!.url,
  deadLetterQueueUrl: (name) => provisioned[name]!.dlqUrl,
  bucket: localNames.bucket,
};
export const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);

/** Maps the emulated physical names back to the template's resources. */
function templateArns(): Arns {
  const tableIds = new Map((Object.keys(tables) as TableName[]).map((t) => [names.table(t), logicalId(stack.node.findChild(`${pascal(t)}Table`))]));
  const queueIds = new Map(
    (Object.keys(queues) as QueueName[]).flatMap((q) => {
      const work = stack.node.findChild(`${pascal(q)}Queue`);
      return [
        [provisioned[q]!.url, logicalId(work.node.findChild('Queue'))],
        [provisioned[q]!.dlqUrl, logicalId(work.node.findChild('DeadLetterQueue'))],
      ] as const;
    }),
  );
  const bucketId = logicalId(stack.mediaStorage.bucket);
  const known = (map: Map<string, string>, physical: string) =>
    map.has(physical) ? arnOfResource(resources, map.get(physical)!) : `arn:not-in-the-stack:${physical}`;
  const bucketArn = (bucket: string) => (bucket === names.bucket ? arnOfResource(resources, bucketId) : `arn:not-in-the-stack:${bucket}`);
  return {
    object: (bucket, key) => `${bucketArn(bucket)}/${key}`,
    bucket: bucketArn,
    table: (table, index) => `${known(tableIds, table)}${index ? `/index/${index}` : ''}`,
    queue: (url) => known(queueIds, url),
  };
}

/** Invokes a function's real handler, recording its calls as that function's. */
export function invoke(name: FunctionName, event: unknown): Promise<any> {
  invoked.add(name);
  return recorder.as(name, () =>
    handlers[name](event, lambdaContext(`vidbot-${name}`, (functions as Record<string, { timeoutSeconds: number }>)[name]!.timeoutSeconds)),
  );
}

export const caller = () => ({ tenantId: tenant.tenantId, keyId: tenant.keyId });
export async function http(
  name: FunctionName,
  method: string,
  path: string,
  options: { resource?: string; pathParameters?: Record<string, string>; body?: unknown; headers?: Record<string, string> } = {},
) {
  const event = restEvent({
    method,
    path,
    resource: options.resource,
    pathParameters: options.pathParameters,
    headers: { 'Content-Type': 'application/json', ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    caller: caller(),
  });
  const result = await invoke(name, event);
  return { status: result.statusCode as number, body: result.body ? JSON.parse(result.body) : undefined };
}
export const videoPath = (id: string, suffix = '') => ({ resource: `/v1/video/{id}${suffix}`, pathParameters: { id } });

/**
 * Acts as Lambda's event source mapping for a queue: receives what is there, invokes the consumer with it and
 * deletes the records it did not report as failed, until the queue is empty.
 */
export async function drain(queue: QueueName, consumer: FunctionName) {
  const decl = functions[consumer] as FunctionDecl;
  const batchSize = decl.trigger === 'queue' ? decl.batchSize : 1;
  for (let round = 0; round < 50; round++) {
    const { Messages = [] } = await emulators.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: provisioned[queue]!.url,
        MaxNumberOfMessages: batchSize,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    if (Messages.length === 0) return;
    const event = { Records: Messages.map((m) => toSqsRecord(m, provisioned[queue]!.arn)) };
    const result = (await invoke(consumer, event)) as { batchItemFailures: { itemIdentifier: string }[] };
    const failed = new Set(result.batchItemFailures.map((f) => f.itemIdentifier));
    for (const record of event.Records.filter((r) => !failed.has(r.messageId))) {
      await emulators.sqs.send(new DeleteMessageCommand({ QueueUrl: provisioned[queue]!.url, ReceiptHandle: record.receiptHandle }));
    }
  }
  throw new Error(`queue ${queue} did not drain`);
}

/** A bot with a Polly voice, so the render reaches Polly (SPEECH_ENGINE=polly below, as on AWS). */
export const pollyBot: Bot = {
  ...BUILT_IN_BOTS[0]!,
  uid: 'bot_grants_polly',
  name: 'Polly',
  voice: { espeak: 'espeak:en-us+f3', polly: 'polly:Joanna' },
};
/** Polly has no local emulator: one second of silence and two visemes, as its pcm and json outputs. */
function pollyAnswer(call: AwsCall) {
  const bytes =
    call.input.OutputFormat === 'pcm'
      ? new Uint8Array(32_000)
      : Buffer.from('{"time":0,"type":"viseme","value":"sil"}\n{"time":400,"type":"viseme","value":"p"}\n');
  return {
    $metadata: {},
    AudioStream: { transformToByteArray: async () => bytes, transformToString: async () => Buffer.from(bytes).toString('utf8') },
  };
}

export async function setDeadline(videoId: string, deadlineAt: number) {
  await doc.send(
    new UpdateCommand({
      TableName: names.table('videos'),
      Key: { videoId },
      UpdateExpression: 'SET deadlineAt = :d',
      ExpressionAttributeValues: { ':d': deadlineAt },
    }),
  );
}

export const batchIds: string[] = [];

/**
 * Synthesises the stack, starts and seeds the emulators, sets every function's environment and loads its real
 * handler, recording the SDK calls (Polly answered by the recorder). The scenarios run after this.
 */
export async function startGrantsRun() {
  ({ stack } = synthStack());
  resources = Template.fromStack(stack).toJSON().Resources;

  dataDir = await mkdtemp(join(tmpdir(), 'vidbot-grants-'));
  const log = createLog('silent');
  emulators = await startEmulators(dataDir, {}, localNames.bucket);
  await ensureTables(emulators.dynamo, tables, localNames.table);
  provisioned = await ensureQueues(emulators.sqs, queues, localNames.queue, 1, log);
  doc = DynamoDBDocumentClient.from(emulators.dynamo, { marshallOptions: { removeUndefinedValues: true } });
  await seedBots({ doc, s3: emulators.s3, botsTable: names.table('bots'), bucket: names.bucket, root: REPO_ROOT, log });
  await doc.send(new PutCommand({ TableName: names.table('bots'), Item: pollyBot }));
  tenant = await seedDevTenant({ doc, accountsTable: names.table('accounts'), keysTable: names.table('keys'), dataDir, log });
  arns = templateArns();

  // Every function's environment at once (the names are the same for all), as the local runtime gives it, and
  // a private TMPDIR: render and assemble clear leftover work dirs of their kind in it.
  const workTmp = join(dataDir, 'tmp');
  await mkdir(workTmp);
  Object.assign(process.env, {
    TMPDIR: workTmp,
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: emulators.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: emulators.credentials.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: emulators.endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: emulators.endpoints.s3,
    AWS_ENDPOINT_URL_SQS: emulators.endpoints.sqs,
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    [envNames.s3ForcePathStyle]: 'true',
    [envNames.logLevel]: 'ERROR',
    ...Object.assign({}, ...functionNames.map((name) => environmentFor(functions[name] as FunctionDecl, names, 'local'))),
    // Polly's grants are what is checked: the deployment speaks Polly, as on AWS.
    [envNames.speechEngine]: 'polly',
  });
  recorder.install();
  recorder.stub('Polly', pollyAnswer);
  for (const name of functionNames) {
    const module = await import(pathToFileURL(resolve(REPO_ROOT, functions[name].entry)).href);
    handlers[name] = module.handler;
  }
}

export async function stopGrantsRun() {
  recorder.uninstall();
  await emulators?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
