/**
 * Grants: every AWS call a function's code really makes is allowed by the IAM policies of that function's role
 * in the synthesised template. A missing grant fails here instead of as AccessDenied in production.
 *
 * The calls are not listed by hand: the real handlers of infra/wiring.ts run in this process against the local
 * emulators (dynalite, s3rver, fauxqs; Polly is answered by the recorder), driven through scenarios that reach
 * their branches, and test/support/aws-calls.ts records each SDK call (sends and presigned URLs) with the
 * function it ran for. Each call becomes the IAM actions and resources it needs (NEEDS below: an operation
 * missing there fails the test), the emulated names are mapped back to the template's resources, and each need
 * is checked against the role's Allow statements with IAM's wildcards.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoVideoRepository } from '#commons/aws/dynamo-videos';
import { envNames } from '#commons/env-names';
import { signWebhook } from '#commons/webhooks/signature';
import type { AccountBot } from '#domain/account-bot';
import { type Bot, BUILT_IN_BOTS } from '#domain/bot';
import { lookFileKey, uploadKey } from '#domain/bucket-layout';
import type { PrepareBotMessage } from '#domain/messages';
import { type Emulators, ensureQueues, ensureTables, LOCAL_REGION, type ProvisionedQueue, startEmulators } from '#infra/local/emulators.ts';
import { wildcardMatch } from '#infra/local/iam-policy.ts';
import { createLog } from '#infra/local/log.ts';
import { toSqsRecord } from '#infra/local/poller.ts';
import { localNames, REPO_ROOT } from '#infra/local/runtime.ts';
import { type DevTenant, seedBots, seedDevTenant } from '#infra/local/seed.ts';
import { startFileServer } from '#infra/scripts/support/file-server.ts';
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
import { type AwsCall, AwsCallRecorder } from '../../support/aws-calls.ts';
import { lambdaContext, restEvent } from '../../support/events.ts';
import { synthStack } from '../../support/synth.ts';
import { startWebhookReceiver } from '../../support/webhook-receiver.ts';

// --- From a call to the IAM actions it needs ----------------------------------------------------------------

/** What one call needs: an IAM action on a resource ARN. */
interface Need {
  action: string;
  resource: string;
}

/** ARNs of the resources a call names, in the template's terms (see `arnOfResource`). */
interface Arns {
  object(bucket: string, key: string): string;
  bucket(bucket: string): string;
  table(table: string, index?: string): string;
  queue(queueUrl: string): string;
}

const s3GetObject = (call: AwsCall, arns: Arns): Need[] => [
  { action: 's3:GetObject', resource: arns.object(call.input.Bucket, call.input.Key) },
  // Without s3:ListBucket S3 answers a missing key with 403, not 404: the code's "not stored" branch (the render
  // cache's miss, render_expired) would become an AccessDenied error.
  ...(call.failedWith === 404 ? [{ action: 's3:ListBucket', resource: arns.bucket(call.input.Bucket) }] : []),
];
const dynamoItem =
  (action: string) =>
  (call: AwsCall, arns: Arns): Need[] => [{ action, resource: arns.table(call.input.TableName) }];
const dynamoRead =
  (action: string) =>
  (call: AwsCall, arns: Arns): Need[] => [{ action, resource: arns.table(call.input.TableName, call.input.IndexName) }];
const sqs =
  (action: string) =>
  (call: AwsCall, arns: Arns): Need[] => [{ action, resource: arns.queue(call.input.QueueUrl) }];
const TRANSACT_ACTIONS: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
  Get: 'dynamodb:GetItem',
};

/**
 * The IAM actions of each SDK operation the functions use (lib-dynamodb's commands are recorded as the
 * low-level ones they send). Kept small and explicit: an operation missing here fails the test, so new code
 * cannot call something unchecked.
 */
const NEEDS: Record<string, (call: AwsCall, arns: Arns) => Need[]> = {
  // A presigned GetObject is used with the function's credentials: the role needs s3:GetObject just the same.
  'S3 GetObject': s3GetObject,
  'S3 HeadObject': s3GetObject,
  'S3 PutObject': (call, arns) => [
    { action: 's3:PutObject', resource: arns.object(call.input.Bucket, call.input.Key) },
    ...(call.input.Tagging ? [{ action: 's3:PutObjectTagging', resource: arns.object(call.input.Bucket, call.input.Key) }] : []),
  ],
  'S3 CopyObject': (call, arns) => {
    const [sourceBucket = '', ...sourceKey] = decodeURIComponent(String(call.input.CopySource).replace(/^\//, '')).split('/');
    const source = arns.object(sourceBucket, sourceKey.join('/'));
    const target = arns.object(call.input.Bucket, call.input.Key);
    const copiesTags = (call.input.TaggingDirective ?? 'COPY') === 'COPY';
    return [
      { action: 's3:GetObject', resource: source },
      { action: 's3:PutObject', resource: target },
      ...(copiesTags ? [{ action: 's3:GetObjectTagging', resource: source }] : []),
      ...(copiesTags || call.input.Tagging ? [{ action: 's3:PutObjectTagging', resource: target }] : []),
    ];
  },
  'S3 DeleteObject': (call, arns) => [{ action: 's3:DeleteObject', resource: arns.object(call.input.Bucket, call.input.Key) }],
  'S3 GetObjectTagging': (call, arns) => [{ action: 's3:GetObjectTagging', resource: arns.object(call.input.Bucket, call.input.Key) }],
  'S3 ListObjectsV2': (call, arns) => [{ action: 's3:ListBucket', resource: arns.bucket(call.input.Bucket) }],
  'DynamoDB GetItem': dynamoItem('dynamodb:GetItem'),
  'DynamoDB PutItem': dynamoItem('dynamodb:PutItem'),
  'DynamoDB UpdateItem': dynamoItem('dynamodb:UpdateItem'),
  'DynamoDB DeleteItem': dynamoItem('dynamodb:DeleteItem'),
  'DynamoDB Query': dynamoRead('dynamodb:Query'),
  'DynamoDB Scan': dynamoRead('dynamodb:Scan'),
  'DynamoDB BatchGetItem': (call, arns) =>
    Object.keys(call.input.RequestItems ?? {}).map((t) => ({ action: 'dynamodb:BatchGetItem', resource: arns.table(t) })),
  'DynamoDB BatchWriteItem': (call, arns) =>
    Object.keys(call.input.RequestItems ?? {}).map((t) => ({ action: 'dynamodb:BatchWriteItem', resource: arns.table(t) })),
  'DynamoDB TransactWriteItems': (call, arns) => transactNeeds(call, arns),
  'DynamoDB TransactGetItems': (call, arns) => transactNeeds(call, arns),
  'SQS SendMessage': sqs('sqs:SendMessage'),
  'SQS SendMessageBatch': sqs('sqs:SendMessage'),
  'SQS ReceiveMessage': sqs('sqs:ReceiveMessage'),
  'SQS ChangeMessageVisibility': sqs('sqs:ChangeMessageVisibility'),
  'SQS DeleteMessage': sqs('sqs:DeleteMessage'),
  'SQS GetQueueAttributes': sqs('sqs:GetQueueAttributes'),
  // SynthesizeSpeech's only resource type is the (optional) lexicon.
  'Polly SynthesizeSpeech': () => [{ action: 'polly:SynthesizeSpeech', resource: `arn:aws:polly:${REGION}:${ACCOUNT}:lexicon/*` }],
};

function transactNeeds(call: AwsCall, arns: Arns): Need[] {
  return (call.input.TransactItems ?? []).flatMap((item: Record<string, { TableName: string }>) =>
    Object.entries(item).map(([kind, request]) => {
      const action = TRANSACT_ACTIONS[kind];
      if (!action) throw new Error(`no IAM action known for a ${kind} in ${call.operation}: add it to TRANSACT_ACTIONS`);
      return { action, resource: arns.table(request.TableName) };
    }),
  );
}

export function needsOf(call: AwsCall, arns: Arns): Need[] {
  const needs = NEEDS[`${call.service} ${call.operation}`];
  if (!needs)
    throw new Error(
      `${call.function} calls ${call.service} ${call.operation}, which the grants test does not know: add its IAM actions to NEEDS in test/integration/infra/grants.test.ts`,
    );
  return needs(call, arns);
}

// --- The template's policies --------------------------------------------------------------------------------

const REGION = 'eu-west-1';
const ACCOUNT = '123456789012';

interface Statement {
  Effect: string;
  Action?: string | string[];
  Resource?: unknown;
  NotAction?: unknown;
  NotResource?: unknown;
  Condition?: unknown;
}
type Resources = Record<string, { Type: string; Properties: any }>;
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The ARN a resource of the template has, named by its logical id (what Fn::GetAtt Arn gives on deploy). */
function arnOfResource(resources: Resources, id: string): string {
  const type = resources[id]?.Type;
  switch (type) {
    case 'AWS::DynamoDB::Table':
      return `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${id}`;
    case 'AWS::S3::Bucket':
      return `arn:aws:s3:::${id}`;
    case 'AWS::SQS::Queue':
      return `arn:aws:sqs:${REGION}:${ACCOUNT}:${id}`;
    default:
      return `arn:vidbot-test:${type}:${id}`;
  }
}

const PSEUDO: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': REGION,
  'AWS::AccountId': ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
};

/** A policy's Resource value as the ARN pattern it becomes on deploy. */
function resolveResource(resources: Resources, value: unknown): string {
  if (typeof value === 'string') return value;
  const [[intrinsic, argument]] = Object.entries(value as Record<string, any>) as [[string, any]];
  if (intrinsic === 'Fn::GetAtt' && argument[1] === 'Arn') return arnOfResource(resources, argument[0]);
  if (intrinsic === 'Fn::Join') return (argument[1] as unknown[]).map((part) => resolveResource(resources, part)).join(argument[0]);
  if (intrinsic === 'Ref' && PSEUDO[argument]) return PSEUDO[argument];
  throw new Error(`the grants test cannot read the policy resource ${JSON.stringify(value)}`);
}

/** Every Allow statement of the policies attached to a role (its inline ones and AWS::IAM::Policy resources). */
function statementsOfRole(resources: Resources, roleId: string): Statement[] {
  const inline = list(resources[roleId]?.Properties.Policies as { PolicyDocument: { Statement: Statement[] } }[]).flatMap(
    (p) => p.PolicyDocument.Statement,
  );
  const attached = Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && list(r.Properties.Roles).some((role: any) => role?.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
  const statements = [...inline, ...attached];
  for (const s of statements) {
    // Not used by this stack; refused rather than misread.
    if (s.NotAction || s.NotResource || s.Condition || s.Effect !== 'Allow')
      throw new Error(`the grants test does not evaluate statement ${JSON.stringify(s)}`);
  }
  return statements;
}

/** Whether an Allow statement covers the need: actions case-insensitively, resources case-sensitively, IAM wildcards. */
function allows(resources: Resources, statements: Statement[], need: Need): boolean {
  return statements.some(
    (s) =>
      list(s.Action).some((a) => wildcardMatch(a.toLowerCase(), need.action.toLowerCase())) &&
      list(s.Resource).some((r) => wildcardMatch(resolveResource(resources, r), need.resource)),
  );
}

// --- The run ------------------------------------------------------------------------------------------------

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const functionNames = Object.keys(functions) as FunctionName[];

const recorder = new AwsCallRecorder();
let stack: VidbotStack;
let resources: Resources;
let emulators: Emulators;
let provisioned: Record<string, ProvisionedQueue>;
let doc: DynamoDBDocumentClient;
let tenant: DevTenant;
let dataDir: string;
const handlers = {} as Record<FunctionName, (event: unknown, context: unknown) => Promise<any>>;
const invoked = new Set<FunctionName>();
const videoIds: Record<string, string> = {};
let arns: Arns;

const names: ResourceNames = {
  table: (name) => localNames.table(name),
  queueUrl: (name) => provisioned[name]!.url,
  deadLetterQueueUrl: (name) => provisioned[name]!.dlqUrl,
  bucket: localNames.bucket,
};
const logicalId = (construct: IConstruct) => stack.getLogicalId(construct.node.defaultChild as CfnElement);

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
function invoke(name: FunctionName, event: unknown): Promise<any> {
  invoked.add(name);
  return recorder.as(name, () =>
    handlers[name](event, lambdaContext(`vidbot-${name}`, (functions as Record<string, { timeoutSeconds: number }>)[name]!.timeoutSeconds)),
  );
}

const caller = () => ({ tenantId: tenant.tenantId, keyId: tenant.keyId });
async function http(
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
const videoPath = (id: string, suffix = '') => ({ resource: `/v1/video/{id}${suffix}`, pathParameters: { id } });

/**
 * Acts as Lambda's event source mapping for a queue: receives what is there, invokes the consumer with it and
 * deletes the records it did not report as failed, until the queue is empty.
 */
async function drain(queue: QueueName, consumer: FunctionName) {
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
const pollyBot: Bot = { ...BUILT_IN_BOTS[0]!, uid: 'bot_grants_polly', name: 'Polly', voice: { espeak: 'espeak:en-us+f3', polly: 'polly:Joanna' } };
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

async function setDeadline(videoId: string, deadlineAt: number) {
  await doc.send(
    new UpdateCommand({
      TableName: names.table('videos'),
      Key: { videoId },
      UpdateExpression: 'SET deadlineAt = :d',
      ExpressionAttributeValues: { ':d': deadlineAt },
    }),
  );
}

const batchIds: string[] = [];

/** Runs every function of the wiring through the scenarios that reach its AWS calls. */
async function runScenarios() {
  const ok = await startWebhookReceiver(tenant.webhookSecret);
  const failing = await startWebhookReceiver(tenant.webhookSecret, () => 500);
  const files = await startFileServer({});
  try {
    // Authorizer: a known key, an unknown one.
    const authorizerEvent = (key: string) => ({
      type: 'REQUEST',
      methodArn: `arn:aws:execute-api:${REGION}:${ACCOUNT}:api/prod/GET/v1/account`,
      headers: { Authorization: `Bearer ${key}` },
    });
    expect((await invoke('authorizer', authorizerEvent(tenant.apiKey))).principalId).toBe(tenant.keyId);
    await expect(invoke('authorizer', authorizerEvent(`vb_${'A'.repeat(43)}`))).rejects.toThrow('Unauthorized');

    // Bots, voices and meta.
    expect((await http('bots', 'GET', '/v1/bot')).status).toBe(200);
    expect((await http('bots', 'GET', '/v1/bot/bot_ava', { resource: '/v1/bot/{uid}', pathParameters: { uid: 'bot_ava' } })).status).toBe(200);
    expect((await http('createVideo', 'POST', '/v1/bot/', { resource: '/v1/bot' })).status).toBe(200);
    expect((await http('meta', 'GET', '/health')).status).toBe(200);
    expect((await http('voices', 'GET', '/v1/voices')).status).toBe(200);
    expect((await invoke('console', restEvent({ method: 'GET', path: '/', caller: null }))).statusCode).toBe(200);

    // The webhook inbox: a signed delivery is verified against the account's keys (byTenant) and stored; one
    // that does not verify stores nothing; the account lists what it received.
    const payload = JSON.stringify({ type: 'video.completed', data: { video_id: 'vid_grants' } });
    const delivery = (headers: Record<string, string>) =>
      invoke(
        'inboxReceive',
        restEvent({
          method: 'POST',
          path: `/v1/inbox/${tenant.tenantId}`,
          resource: '/v1/inbox/{account}',
          pathParameters: { account: tenant.tenantId },
          headers,
          body: payload,
          caller: null,
        }),
      );
    const signedHeaders = signWebhook({ msgId: 'evt_grants', timestamp: new Date(), payload, secrets: [tenant.webhookSecret] });
    expect((await delivery(signedHeaders)).statusCode).toBe(200);
    expect((await delivery({ ...signedHeaders, 'webhook-signature': 'v1,AAAA' })).statusCode).toBe(401);
    expect((await http('inbox', 'GET', '/v1/inbox')).body.events).toHaveLength(1);

    // Templates: saved (its bots checked), read, listed, a video made from it, deleted.
    const templatePath = { resource: '/v1/templates/{uid}', pathParameters: { uid: 'grants' } };
    const template = { name: 'Grants', create_video: false, clips: [{ bot_uid: 'bot_ava', text: 'Hi {{name}}.' }] };
    expect((await http('templates', 'PUT', '/v1/templates/grants', { ...templatePath, body: template })).status).toBe(200);
    expect((await http('templates', 'GET', '/v1/templates/grants', templatePath)).status).toBe(200);
    expect((await http('templates', 'GET', '/v1/templates')).body.templates).toHaveLength(1);
    const fromTemplate = await http('createVideo', 'POST', '/v1/templates/grants/videos', {
      resource: '/v1/templates/{uid}/videos',
      pathParameters: { uid: 'grants' },
      body: { webhook: `${ok.url}/template`, variables: { name: 'Ada' } },
    });
    expect(fromTemplate.status, JSON.stringify(fromTemplate.body)).toBe(202);

    // Batches: one sent (its rows checked, its input stored, its first look queued), listed, read; another
    // cancelled. The batcher makes the first one's video now; it settles at the end (batch.completed, below).
    const batchBody = { webhook: `${ok.url}/batch`, rows: [{ name: 'Ada' }] };
    const batchPost = { resource: '/v1/templates/{uid}/batches', pathParameters: { uid: 'grants' } };
    const sent = await http('batches', 'POST', '/v1/templates/grants/batches', {
      ...batchPost,
      body: batchBody,
      headers: { 'Idempotency-Key': 'grants-b' },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(202);
    batchIds.push(sent.body.batch_id);
    const cancelled = await http('batches', 'POST', '/v1/templates/grants/batches', { ...batchPost, body: batchBody });
    const batchPath = (id: string) => ({ resource: '/v1/batches/{id}', pathParameters: { id } });
    expect((await http('batches', 'DELETE', `/v1/batches/${cancelled.body.batch_id}`, batchPath(cancelled.body.batch_id))).status).toBe(202);
    expect((await http('batches', 'GET', '/v1/batches')).body.batches).toHaveLength(2);
    await drain('batch', 'batcher');
    expect((await http('batches', 'GET', `/v1/batches/${sent.body.batch_id}`, batchPath(sent.body.batch_id))).body.videos[0].video_id).toMatch(
      /^vid_/,
    );
    expect((await http('templates', 'DELETE', '/v1/templates/grants', templatePath)).status).toBe(200);

    // v1: a video with a temporary render and a kept clip, created with an Idempotency-Key and retried.
    const create = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
      const res = await http('createVideo', 'POST', '/v1/bot', { body, headers });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      return res.body.video_id as string;
    };
    const v1Body = {
      webhook: `${ok.url}/v1`,
      clips: [
        { bot_uid: 'bot_ava', text: 'Grants one.' },
        { bot_uid: 'bot_leo', text: 'Grants two.', reusable_clip: true },
      ],
    };
    videoIds.v1 = await create(v1Body, { 'Idempotency-Key': 'grants-1' });
    expect(await create(v1Body, { 'Idempotency-Key': 'grants-1' })).toBe(videoIds.v1);
    await drain('render', 'render');
    await drain('assemble', 'assemble');
    await drain('notify', 'notifier');

    // v2: reuses v1's kept clip, copies v1's temporary render into a kept one, speaks with Polly; its webhook
    // fails, so the notifier reschedules the attempt.
    const { body: kept } = await http('videos', 'GET', '/v1/clips');
    videoIds.v2 = await create({
      webhook: `${failing.url}/v2`,
      clips: [
        { clip_uid: kept.clips[0].clip_uid },
        { bot_uid: 'bot_ava', text: 'Grants one.', reusable_clip: true },
        { bot_uid: pollyBot.uid, text: 'Polly.' },
      ],
    });
    // v3: voice only; the video ends while its output is being stored, so assemble discards the output.
    videoIds.v3 = await create({ webhook: `${ok.url}/v3`, create_video: false, clips: [{ bot_uid: 'bot_otto', text: 'Grants three.' }] });
    // v4: its background is missing, so the render fails the video.
    videoIds.v4 = await create({
      webhook: `${ok.url}/v4`,
      clips: [{ bot_uid: 'bot_maya', text: 'Grants four.', background: `${files.base}/missing.mp4` }],
    });
    const repository = new DynamoVideoRepository(doc, names.table('videos'));
    recorder.beforeCall(async (call) => {
      if (
        call.function === 'assemble' &&
        (call.operation === 'PutObject' || call.operation === 'CopyObject') &&
        String(call.input.Key).includes(videoIds.v3!)
      ) {
        await repository.fail(
          videoIds.v3!,
          { code: 'deadline_exceeded', message: 'ended by the grants test during assembly' },
          `evt_grants_${videoIds.v3}`,
        );
      }
    });
    await drain('render', 'render');
    await drain('assemble', 'assemble');
    await drain('notify', 'notifier');

    // The videos function on a delivered video: read, list, download, redeliver, then delete.
    expect((await http('videos', 'GET', `/v1/video/${videoIds.v1}`, videoPath(videoIds.v1))).body.status).toBe('completed');
    expect((await http('videos', 'GET', '/v1/video')).status).toBe(200);
    expect((await http('videos', 'GET', `/v1/video/${videoIds.v1}/download`, videoPath(videoIds.v1, '/download'))).status).toBe(302);
    expect((await http('videos', 'POST', `/v1/video/${videoIds.v1}/redeliver`, videoPath(videoIds.v1, '/redeliver'))).status).toBe(202);
    await drain('notify', 'notifier');
    expect((await http('account', 'GET', '/v1/account')).status).toBe(200);
    expect((await http('videos', 'DELETE', `/v1/video/${videoIds.v1}`, videoPath(videoIds.v1))).status).toBeLessThan(300);

    // Bots of the account: a drawn bot by multipart (prepared for real: its look written under looks/, bot.ready
    // delivered) and a photo by an image_url that answers 404 (failed: uploads removed, bot.failed delivered); then a
    // ready bot with its look in the bucket, rendered into v7 (the render fetches looks/), and deleted with its look.
    const botPath = (uid: string) => ({ resource: '/v1/bot/{uid}', pathParameters: { uid } });
    const drawn = (file: string) => new Blob([readFileSync(join(REPO_ROOT, 'functions/render/bots/ava', file))], { type: 'image/png' });
    /** PUT /v1/bot/{uid} of a drawn bot, by multipart. */
    const putDrawn = async (uid: string) => {
      const form = new FormData();
      form.set('name', 'Drawn');
      form.set('webhook', `${ok.url}/bot`);
      form.set('mouth_closed', drawn('head-m0-eo.png'), 'closed.png');
      form.set('mouth_open', drawn('head-m4-eo.png'), 'open.png');
      const multipart = new Response(form);
      return invoke(
        'bots',
        restEvent({
          method: 'PUT',
          path: `/v1/bot/${uid}`,
          ...botPath(uid),
          headers: { 'Content-Type': multipart.headers.get('content-type')! },
          body: Buffer.from(await multipart.arrayBuffer()),
          caller: caller(),
        }),
      );
    };
    const put = await putDrawn('grants-drawn');
    expect(put.statusCode, put.body).toBe(202);
    expect(
      (await http('bots', 'PUT', '/v1/bot/grants-url', { ...botPath('grants-url'), body: { name: 'URL', image_url: `${files.base}/missing.png` } }))
        .status,
    ).toBe(202);
    await drain('prepare', 'prepare');
    await drain('notify', 'notifier');
    expect((await http('bots', 'GET', '/v1/bot/grants-drawn', botPath('grants-drawn'))).body).toMatchObject({
      status: 'ready',
      webhook_delivery: { state: 'delivered' },
    });
    // Its event sent again on request (POST /v1/bot/{uid}/redeliver), and recorded on the bot by the notifier.
    const redeliver = await http('bots', 'POST', '/v1/bot/grants-drawn/redeliver', {
      resource: '/v1/bot/{uid}/redeliver',
      pathParameters: { uid: 'grants-drawn' },
    });
    expect(redeliver.status).toBe(202);
    await drain('notify', 'notifier');
    expect((await http('bots', 'GET', '/v1/bot/grants-drawn', botPath('grants-drawn'))).body.webhook_delivery.attempts).toHaveLength(2);
    expect((await http('bots', 'GET', '/v1/bot/grants-url', botPath('grants-url'))).body.status).toBe('failed');
    const version = 'v_grants';
    const look = readdirSync(join(REPO_ROOT, 'functions/render/bots/leo')).filter((f) => /\.(png|json)$/.test(f));
    for (const file of look)
      await emulators.s3.send(
        new PutObjectCommand({
          Bucket: names.bucket,
          Key: lookFileKey(tenant.tenantId, 'grants-ready', version, file),
          Body: readFileSync(join(REPO_ROOT, 'functions/render/bots/leo', file)),
        }),
      );
    const now = new Date().toISOString();
    const ready: AccountBot = {
      tenantId: tenant.tenantId,
      uid: 'grants-ready',
      keyId: tenant.keyId,
      name: 'Ready',
      description: '',
      voice: 'espeak:en-us+f3',
      defaultPosition: 'center',
      status: 'ready',
      version,
      source: { kind: 'photo_url', url: 'https://example.com/me.png' },
      look: { version, files: look, preview: 'preview.png' },
      createdAt: now,
      updatedAt: now,
    };
    await doc.send(new PutCommand({ TableName: names.table('accountBots'), Item: ready }));
    expect((await http('bots', 'GET', '/v1/bot')).body.bots.map((b: { uid: string }) => b.uid)).toContain('grants-ready');
    videoIds.v7 = await create({ webhook: `${ok.url}/v7`, clips: [{ bot_uid: 'grants-ready', text: 'My own bot.' }] });
    await drain('render', 'render');
    await drain('assemble', 'assemble');
    await drain('notify', 'notifier');
    expect((await http('videos', 'GET', `/v1/video/${videoIds.v7}`, videoPath(videoIds.v7))).body.status).toBe('completed');
    // Replaced while v8, accepted before, waits: the new look settles and moves the old one to retired-looks/ (copy,
    // delete), where v8's render finds it; deleting the bot then removes its looks, the retired one too.
    videoIds.v8 = await create({ webhook: `${ok.url}/v8`, clips: [{ bot_uid: 'grants-ready', text: 'My pinned look.' }] });
    expect((await putDrawn('grants-ready')).statusCode).toBe(202);
    await drain('prepare', 'prepare');
    // A render container other than v7's: the look is not in its /tmp yet.
    await rm(join(dataDir, 'tmp', 'looks'), { recursive: true, force: true });
    await drain('render', 'render');
    await drain('assemble', 'assemble');
    await drain('notify', 'notifier');
    expect((await http('videos', 'GET', `/v1/video/${videoIds.v8}`, videoPath(videoIds.v8))).body.status).toBe('completed');
    expect((await http('bots', 'DELETE', '/v1/bot/grants-ready', botPath('grants-ready'))).status).toBe(200);

    // Sweeper: v5's render crashed on every attempt (its message is in the render DLQ), v6 is past its deadline,
    // and v3's event must be sent again (failed, no attempt recorded, past its notify-by time).
    videoIds.v5 = await create({ webhook: `${ok.url}/v5`, clips: [{ bot_uid: 'bot_ava', text: 'Grants five.' }] });
    videoIds.v6 = await create({ webhook: `${ok.url}/v6`, clips: [{ bot_uid: 'bot_ava', text: 'Grants six.' }] });
    const { Messages = [] } = await emulators.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: provisioned.render!.url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }),
    );
    for (const message of Messages) {
      if (message.Body?.includes(videoIds.v5))
        await emulators.sqs.send(new SendMessageCommand({ QueueUrl: provisioned.render!.dlqUrl, MessageBody: message.Body }));
      await emulators.sqs.send(new DeleteMessageCommand({ QueueUrl: provisioned.render!.url, ReceiptHandle: message.ReceiptHandle }));
    }
    // …and grants-crashed's new version crashed on every attempt (its message is in the prepare DLQ): the sweeper
    // fails it, removes its uploads (its previous look stays), and queues bot.failed.
    const crashed: AccountBot = {
      ...ready,
      uid: 'grants-crashed',
      webhookUrl: `${ok.url}/crashed`,
      status: 'preparing',
      version: 'v_crashed',
      source: { kind: 'photo', uploadKey: uploadKey(tenant.tenantId, 'grants-crashed', 'v_crashed', 'image') },
      look: { version: 'v_before', files: ['preview.png'], preview: 'preview.png' },
    };
    await doc.send(new PutCommand({ TableName: names.table('accountBots'), Item: crashed }));
    const prepareMessage: PrepareBotMessage = { kind: 'prepare-bot', tenantId: tenant.tenantId, uid: 'grants-crashed', version: 'v_crashed' };
    await emulators.sqs.send(new SendMessageCommand({ QueueUrl: provisioned.prepare!.dlqUrl, MessageBody: JSON.stringify(prepareMessage) }));
    const past = Math.floor(Date.now() / 1000) - 60;
    await setDeadline(videoIds.v6, past);
    await doc.send(
      new UpdateCommand({
        TableName: names.table('videos'),
        Key: { videoId: videoIds.v3 },
        UpdateExpression: 'SET delivery.attempts = :none, deadlineAt = :d',
        ExpressionAttributeValues: { ':none': [], ':d': past },
      }),
    );
    await invoke('sweeper', { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} });
    await drain('notify', 'notifier');

    // The batch's video is done by now: its next look (due a few seconds after the last) settles it, and the
    // notifier delivers batch.completed, recorded on the batch.
    await drain('render', 'render');
    await drain('assemble', 'assemble');
    for (
      let i = 0;
      i < 20 &&
      (await http('batches', 'GET', `/v1/batches/${batchIds[0]}`, { resource: '/v1/batches/{id}', pathParameters: { id: batchIds[0]! } })).body
        .status !== 'completed';
      i++
    ) {
      await new Promise((r) => setTimeout(r, 500));
      await drain('batch', 'batcher');
    }
    await drain('notify', 'notifier');
    const settledBatch = await http('batches', 'GET', `/v1/batches/${batchIds[0]}`, {
      resource: '/v1/batches/{id}',
      pathParameters: { id: batchIds[0]! },
    });
    expect(settledBatch.body).toMatchObject({ status: 'completed', webhook: { state: 'delivered' } });
    expect((await http('bots', 'GET', '/v1/bot/grants-crashed', botPath('grants-crashed'))).body).toMatchObject({
      status: 'failed',
      error: { code: 'preparation_failed' },
    });
  } finally {
    await ok.stop();
    await failing.stop();
    await files.stop();
  }
}

beforeAll(async () => {
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
  await runScenarios();
}, 300_000);

afterAll(async () => {
  recorder.uninstall();
  await emulators?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('grants', () => {
  it('drives every function of the wiring', () => {
    expect([...invoked].sort()).toEqual([...functionNames].sort());
    const declaresResources = (d: FunctionDecl) => Boolean(d.tables || d.queues || d.deadLetters || d.bucket || d.polly);
    for (const name of functionNames) {
      if (declaresResources(functions[name] as FunctionDecl))
        expect(
          recorder.calls.some((c) => c.function === name),
          `${name} made no AWS call`,
        ).toBe(true);
    }
  });

  it('reaches the calls that only some branches make', () => {
    const made = (fn: FunctionName, operation: string, where: (c: AwsCall) => boolean = () => true) =>
      recorder.calls.some((c) => c.function === fn && c.operation === operation && where(c));
    expect(
      made('assemble', 'DeleteObject', (c) => c.input.Key.startsWith('outputs/')),
      'assemble discards an output',
    ).toBe(true);
    expect(
      made('videos', 'DeleteObject', (c) => c.input.Key.startsWith('outputs/')),
      'DELETE /v1/video removes the output',
    ).toBe(true);
    expect(
      made('videos', 'GetObject', (c) => c.presigned),
      'download links are presigned',
    ).toBe(true);
    expect(
      made('bots', 'GetObject', (c) => c.presigned),
      'bot previews are presigned',
    ).toBe(true);
    expect(made('render', 'CopyObject'), 'a temporary render is kept by copying').toBe(true);
    expect(
      made('inboxReceive', 'Query', (c) => c.input.IndexName === 'byTenant'),
      "the inbox reads the account's keys",
    ).toBe(true);
    expect(
      made('inboxReceive', 'PutItem', (c) => c.input.TableName === names.table('inbox')),
      'the inbox stores a verified delivery',
    ).toBe(true);
    expect(
      made('render', 'HeadObject', (c) => c.failedWith === 404),
      'a render cache miss',
    ).toBe(true);
    expect(made('render', 'SynthesizeSpeech'), 'Polly speech').toBe(true);
    expect(
      made('render', 'SendMessage', (c) => c.input.QueueUrl === provisioned.notify!.url),
      'a failed render notifies',
    ).toBe(true);
    expect(made('notifier', 'ChangeMessageVisibility'), 'a failed delivery is rescheduled').toBe(true);
    expect(
      made('createVideo', 'GetItem', (c) => c.input.TableName === names.table('idempotency')),
      'the idempotency store',
    ).toBe(true);
    expect(
      made('sweeper', 'ReceiveMessage', (c) => c.input.QueueUrl === provisioned.render!.dlqUrl),
      'dead letters are read',
    ).toBe(true);
    expect(made('sweeper', 'UpdateItem'), 'the sweeper ends or postpones videos').toBe(true);
    expect(
      made('sweeper', 'ReceiveMessage', (c) => c.input.QueueUrl === provisioned.prepare!.dlqUrl),
      'dead-lettered preparations are read',
    ).toBe(true);
    expect(
      made('sweeper', 'UpdateItem', (c) => c.input.TableName === names.table('accountBots')),
      'the sweeper fails a bot',
    ).toBe(true);
    expect(
      made('sweeper', 'Query', (c) => c.input.IndexName === 'unsentEvents'),
      "the sweeper looks for bots' lost events",
    ).toBe(true);
    expect(
      made('sweeper', 'DeleteObject', (c) => c.input.Key.startsWith('uploads/')),
      "a failed bot's uploads are removed",
    ).toBe(true);
    expect(
      made('bots', 'PutObject', (c) => c.input.Key.startsWith('uploads/')),
      'a PUT stores its images',
    ).toBe(true);
    expect(
      made('bots', 'DeleteObject', (c) => c.input.Key.startsWith('looks/')),
      'DELETE /v1/bot/{uid} removes the look',
    ).toBe(true);
    expect(
      made('bots', 'DeleteObject', (c) => c.input.Key.startsWith('retired-looks/')),
      '…and the looks it retired',
    ).toBe(true);
    expect(
      made('prepare', 'CopyObject', (c) => c.input.Key.startsWith('retired-looks/')),
      'a replacement retires the old look',
    ).toBe(true);
    expect(
      made('render', 'GetObject', (c) => c.input.Key.startsWith('retired-looks/')),
      'a clip accepted before a replacement renders with the retired look',
    ).toBe(true);
    expect(
      made('prepare', 'DeleteObject', (c) => c.input.Key.startsWith('uploads/')),
      'the preparation removes the uploads',
    ).toBe(true);
    expect(
      made('prepare', 'UpdateItem', (c) => c.input.TableName === names.table('accountBots')),
      'the preparation settles the bot',
    ).toBe(true);
    expect(
      made('notifier', 'GetItem', (c) => c.input.TableName === names.table('accountBots')),
      'a bot event reads its bot',
    ).toBe(true);
    expect(
      made('notifier', 'UpdateItem', (c) => c.input.TableName === names.table('accountBots')),
      "a bot event's attempt is recorded on the bot",
    ).toBe(true);
    expect(
      made('bots', 'SendMessage', (c) => c.input.QueueUrl === provisioned.notify!.url),
      "a bot's event is redelivered on request",
    ).toBe(true);
    expect(
      made('render', 'GetObject', (c) => c.input.Key.startsWith('looks/')),
      'a render fetches a prepared look',
    ).toBe(true);
    expect(
      made('createVideo', 'GetItem', (c) => c.input.TableName === names.table('accountBots')),
      'a clip may name an account bot',
    ).toBe(true);
  });

  it.each(functionNames)('%s: its role grants every call its code makes', (name) => {
    const role = stack.functions[name].role!;
    const statements = statementsOfRole(resources, logicalId(role));
    const missing = new Set<string>();
    for (const call of recorder.calls.filter((c) => c.function === name)) {
      for (const need of needsOf(call, arns)) {
        if (!allows(resources, statements, need)) {
          missing.add(
            `${name} needs ${need.action} on ${need.resource} (${call.service} ${call.operation}${call.presigned ? ', presigned' : ''}), which its role does not grant`,
          );
        }
      }
    }
    expect([...missing]).toEqual([]);
  });

  it('can fail: a call no role grants is reported, an unknown operation is refused', () => {
    const statements = statementsOfRole(resources, logicalId(stack.functions.authorizer.role!));
    const keysTable = arns.table(names.table('keys'));
    expect(allows(resources, statements, { action: 'dynamodb:GetItem', resource: keysTable })).toBe(true);
    expect(allows(resources, statements, { action: 'dynamodb:PutItem', resource: keysTable })).toBe(false);
    expect(allows(resources, statements, { action: 'dynamodb:GetItem', resource: arns.table(names.table('videos')) })).toBe(false);
    const bots = statementsOfRole(resources, logicalId(stack.functions.bots.role!));
    expect(allows(resources, bots, { action: 's3:DeleteObject', resource: arns.object(names.bucket, 'outputs/a/b.mp4') })).toBe(false);
    expect(() => needsOf({ function: 'x', service: 'S3', operation: 'PutBucketPolicy', input: {}, presigned: false }, arns)).toThrow(/does not know/);
  });
});
