/**
 * From an AWS call to the IAM actions and resources it needs (NEEDS: an operation missing there is refused), and
 * whether a role's Allow statements in the synthesised template grant a need, with IAM's wildcards. Used by
 * test/integration/infra/grants.test.ts.
 */
import { wildcardMatch } from '#infra/local/iam-policy.ts';
import type { AwsCall } from './aws-calls.ts';

// --- From a call to the IAM actions it needs ----------------------------------------------------------------

/** What one call needs: an IAM action on a resource ARN. */
interface Need {
  action: string;
  resource: string;
}

/** ARNs of the resources a call names, in the template's terms (see `arnOfResource`). */
export interface Arns {
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

export const REGION = 'eu-west-1';
export const ACCOUNT = '123456789012';

interface Statement {
  Effect: string;
  Action?: string | string[];
  Resource?: unknown;
  NotAction?: unknown;
  NotResource?: unknown;
  Condition?: unknown;
}
export type Resources = Record<string, { Type: string; Properties: any }>;
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The ARN a resource of the template has, named by its logical id (what Fn::GetAtt Arn gives on deploy). */
export function arnOfResource(resources: Resources, id: string): string {
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
export function statementsOfRole(resources: Resources, roleId: string): Statement[] {
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
export function allows(resources: Resources, statements: Statement[], need: Need): boolean {
  return statements.some(
    (s) =>
      list(s.Action).some((a) => wildcardMatch(a.toLowerCase(), need.action.toLowerCase())) &&
      list(s.Resource).some((r) => wildcardMatch(resolveResource(resources, r), need.resource)),
  );
}
