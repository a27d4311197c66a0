import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CfnElement, Duration, RemovalPolicy, Size, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  DockerImageCode,
  DockerImageFunction,
  type ILayerVersion,
  type Function as LambdaFunction,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { envNames } from '#commons/env-names';
import { SERVICE_NAME } from '#commons/metric-names';
import { type Access, environmentFor, type FunctionDecl, type LayerName, type QueueName, type TableName } from '../wiring.ts';

/** The shared resources a function may be given access to, by their wiring names. */
export interface VidbotResources {
  readonly tables: Readonly<Record<TableName, ITable>>;
  readonly queues: Readonly<Record<QueueName, IQueue>>;
  readonly deadLetterQueues: Readonly<Record<QueueName, IQueue>>;
  readonly bucket: IBucket;
  readonly layers: Readonly<Record<LayerName, ILayerVersion>>;
}

export interface VidbotFunctionProps {
  /** The function's declaration in infra/wiring.ts. */
  readonly decl: FunctionDecl;
  /** Resources the declaration's tables, queues, bucket and layers refer to. */
  readonly resources: VidbotResources;
  /**
   * Handler module to bundle, relative to `projectRoot` (or absolute).
   * @default - `decl.entry`
   */
  readonly entry?: string;
  /**
   * Directory holding the Dockerfile, for a declaration with `image`, relative to `projectRoot` (or absolute). Required for those.
   * @default - none
   */
  readonly imageDirectory?: string;
  /**
   * Repository root: entries and image directories are resolved against it.
   * @default process.cwd()
   */
  readonly projectRoot?: string;
  /**
   * Powertools log level.
   * @default 'INFO'
   */
  readonly logLevel?: string;
  /**
   * How long the function's logs are kept.
   * @default RetentionDays.ONE_MONTH
   */
  readonly logRetention?: RetentionDays;
}

/** Runtime and CPU every vidbot function uses; the media layer and the render image are built for them. */
export const VIDBOT_RUNTIME = Runtime.NODEJS_22_X;
export const VIDBOT_ARCHITECTURE = Architecture.ARM_64;

/**
 * One vidbot Lambda function, built from its wiring declaration with the defaults all of them share: Node.js 22
 * on arm64, an ESM bundle with source maps, Powertools environment, active X-Ray tracing, a log group with retention, memory,
 * timeout and /tmp size from the declaration, and exactly the environment and permissions the declaration
 * names (see {@link connect}). A declaration with `image` becomes a container-image function.
 */
export class VidbotFunction extends Construct {
  readonly function: LambdaFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: VidbotFunctionProps) {
    super(scope, id);
    const { decl } = props;
    const projectRoot = props.projectRoot ?? process.cwd();

    // Created explicitly so it has a retention and is removed with the stack (logs are not data).
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const common = commonProps(decl, this.logGroup, props.logLevel);
    this.function = decl.image ? imageFunction(this, common, props, projectRoot) : bundledFunction(this, common, props, projectRoot);
    acknowledgeManagedChoices(this.function);
    connect(this.function, decl, props.resources);
    // The only grants on "*": actions that have no resource type to name.
    accept(
      this.function,
      'Resource::*',
      [
        'Active tracing grants xray:PutTraceSegments and xray:PutTelemetryRecords, which have no resource type, so they can only be granted on "*".',
        ...(decl.polly ? ['polly:SynthesizeSpeech has no resource type of its own (only optional lexicons), so it can only be granted on "*".'] : []),
        'No other action is granted so.',
      ].join(' '),
    );
  }
}

/** What every vidbot function shares, image or bundle: CPU, sizes from the declaration, logs, tracing, Powertools. */
function commonProps(decl: FunctionDecl, logGroup: LogGroup, logLevel = 'INFO') {
  const storage = decl.ephemeralStorageMb;
  if (storage !== undefined && !(Number.isInteger(storage) && storage >= 512 && storage <= 10240)) {
    throw new Error(`ephemeralStorageMb must be a whole number from 512 to 10240, got ${storage}`);
  }
  return {
    architecture: VIDBOT_ARCHITECTURE,
    memorySize: decl.memoryMb,
    timeout: Duration.seconds(decl.timeoutSeconds),
    ephemeralStorageSize: storage === undefined ? undefined : Size.mebibytes(storage),
    logGroup,
    // Lambda samples requests into X-Ray and the Powertools tracer (functions/commons/tracer.ts) adds the
    // handler and SDK calls; CDK grants xray:PutTraceSegments and xray:PutTelemetryRecords.
    tracing: Tracing.ACTIVE,
    environment: {
      [envNames.serviceName]: SERVICE_NAME,
      [envNames.logLevel]: logLevel,
    },
  };
}

type CommonProps = ReturnType<typeof commonProps>;

/** A container-image function from a directory holding its Dockerfile (the render and prepare images). */
function imageFunction(scope: Construct, common: CommonProps, props: VidbotFunctionProps, projectRoot: string): LambdaFunction {
  const { decl } = props;
  if (!props.imageDirectory) throw new Error(`function declares image "${decl.image}" but no image directory was given`);
  const directory = resolve(projectRoot, props.imageDirectory);
  if (!existsSync(join(directory, 'Dockerfile'))) {
    throw new Error(`${props.imageDirectory}/Dockerfile not found: run \`npm run bundle:render\` to produce the render image directory before synth`);
  }
  // Only staged at synth; the image is built (for arm64) and pushed by `cdk deploy`.
  return new DockerImageFunction(scope, 'Function', {
    ...common,
    code: DockerImageCode.fromImageAsset(directory, { platform: Platform.LINUX_ARM64 }),
  });
}

/** A Node.js function bundled from its handler entry by esbuild: ESM, minified, with source maps. */
function bundledFunction(scope: Construct, common: CommonProps, props: VidbotFunctionProps, projectRoot: string): LambdaFunction {
  const { decl } = props;
  const entry = resolve(projectRoot, props.entry ?? decl.entry);
  if (!existsSync(entry)) throw new Error(`handler entry ${props.entry ?? decl.entry} does not exist`);
  return new NodejsFunction(scope, 'Function', {
    ...common,
    entry,
    handler: 'handler',
    runtime: VIDBOT_RUNTIME,
    projectRoot,
    depsLockFilePath: join(projectRoot, 'package-lock.json'),
    environment: { ...common.environment, NODE_OPTIONS: '--enable-source-maps' },
    layers: (decl.layers ?? []).map((layer) => props.resources.layers[layer]),
    bundling: {
      format: OutputFormat.ESM,
      target: 'node22',
      // Prefer ESM builds of dependencies; CommonJS ones still calling require() get a real one.
      mainFields: ['module', 'main'],
      banner: "import { createRequire as __vidbotCreateRequire } from 'node:module'; const require = __vidbotCreateRequire(import.meta.url);",
      minify: true,
      sourceMap: true,
      // Bundle the AWS SDK too: the versions in package-lock.json are the ones the tests ran against.
      externalModules: [],
      // esbuild is installed locally: never fall back to Docker.
      forceDockerBundling: false,
    },
  });
}

/** cdk-nag findings that are choices of the project: the pinned runtime, the AWS-managed basic execution role. */
function acknowledgeManagedChoices(fn: LambdaFunction): void {
  if (fn.runtime === VIDBOT_RUNTIME) {
    Validations.of(fn).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'Pinned to nodejs22.x on purpose: the media layer, the render image and the esbuild target are built and tested for it; moving to a newer runtime is a change made for all functions together.',
    });
  }
  Validations.of(fn).acknowledge({
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason:
      'The AWS-managed basic execution policy only allows writing CloudWatch logs (the function writes to its own log group, created with retention).',
  });
}

/** How cdk-nag names a resource's ARN in its findings: `<LogicalId.Arn>`. */
function nagArn(resource: { node: { defaultChild?: unknown } }): string {
  const element = resource.node.defaultChild as CfnElement | undefined;
  if (!element) return '<unknown.Arn>';
  return `<${Stack.of(element).getLogicalId(element)}.Arn>`;
}

/** Records, on the function, why a wildcard its grants carry is accepted. */
function accept(fn: LambdaFunction, finding: string, reason: string): void {
  Validations.of(fn).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
}

/**
 * A declaration's bucket access as read/write access on every object (none for a prefix-only `{ delete, put }`)
 * plus the object key patterns it may delete and write: none, everything ('readWriteDelete' deletes), or
 * `<prefix>*` for each prefix of `{ delete, put }`.
 * @internal Exported for its tests.
 */
export function objectAccess(bucket: Exclude<NonNullable<FunctionDecl['bucket']>, 'name'>): { access?: Access; deletes: string[]; puts: string[] } {
  if (bucket === 'readWriteDelete') return { access: 'readWrite', deletes: ['*'], puts: [] };
  if (typeof bucket === 'string') return { access: bucket, deletes: [], puts: [] };
  const deletes = keyPatterns('delete', bucket.delete);
  const puts = keyPatterns('put', bucket.put);
  if (deletes.length + puts.length === 0) throw new Error('bucket.delete or bucket.put must name at least one key prefix, got none');
  return { access: bucket.access, deletes, puts };
}

function keyPatterns(field: 'delete' | 'put', prefixes: readonly string[] = []): string[] {
  for (const prefix of prefixes) {
    if (!/^[a-z0-9][a-z0-9_.-]*\/$/i.test(prefix))
      throw new Error(`bucket.${field} prefixes must be plain key prefixes ending in "/", got "${prefix}"`);
  }
  return prefixes.map((prefix) => `${prefix}*`);
}

/**
 * Gives a function what its declaration names, and nothing more: each table, queue and the bucket becomes an
 * environment variable (through the wiring's `environmentFor`, the same naming the local runtime uses) and the
 * matching least-privilege grant, side by side so the two cannot drift.
 */
function connect(fn: LambdaFunction, decl: FunctionDecl, resources: VidbotResources): void {
  const environment = environmentFor(
    decl,
    {
      table: (name) => resources.tables[name].tableName,
      queueUrl: (name) => resources.queues[name].queueUrl,
      deadLetterQueueUrl: (name) => resources.deadLetterQueues[name].queueUrl,
      bucket: resources.bucket.bucketName,
    },
    'cloud',
  );
  for (const [key, value] of Object.entries(environment)) fn.addEnvironment(key, value);
  connectTables(fn, decl, resources);
  connectQueues(fn, decl, resources);
  const bucketAccess = decl.bucket === undefined || decl.bucket === 'name' ? undefined : objectAccess(decl.bucket);
  if (bucketAccess) connectBucket(fn, bucketAccess, resources.bucket);
  if (decl.polly) {
    fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['polly:SynthesizeSpeech'],
        // SynthesizeSpeech has no resource of its own (only optional lexicons), so it is granted on '*'.
        resources: ['*'],
      }),
    );
  }
}

function connectTables(fn: LambdaFunction, decl: FunctionDecl, resources: VidbotResources): void {
  for (const [name, access] of Object.entries(decl.tables ?? {}) as [TableName, Access][]) {
    const table = resources.tables[name];
    if (access === 'read') table.grantReadData(fn);
    else if (access === 'write') table.grantWriteData(fn);
    else table.grantReadWriteData(fn);
    accept(
      fn,
      `Resource::${nagArn(table)}/index/*`,
      `Queries the ${name} table's own secondary indexes (CDK grants them as <table>/index/* alongside the table); no other table is reachable.`,
    );
  }
}

function connectQueues(fn: LambdaFunction, decl: FunctionDecl, resources: VidbotResources): void {
  for (const [name, access] of Object.entries(decl.queues ?? {}) as [QueueName, 'send' | 'consume'][]) {
    // 'consume' is the function's own trigger: its event source mapping grants what consuming needs.
    if (access === 'send') resources.queues[name].grantSendMessages(fn);
  }
  // Reading a dead-letter queue without consuming it: receive and hide, never delete.
  for (const name of decl.deadLetters ?? []) {
    fn.addToRolePolicy(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueAttributes'],
        resources: [resources.deadLetterQueues[name].queueArn],
      }),
    );
  }
}

/** The bucket's grants, and why each wildcard they carry is accepted. */
function connectBucket(fn: LambdaFunction, bucketAccess: ReturnType<typeof objectAccess>, bucket: IBucket): void {
  const { access, deletes, puts } = bucketAccess;
  const objects = 'Object keys are chosen per video and clip at run time, so object access is granted on <bucket>/* of the one media bucket.';
  if (access) accept(fn, `Resource::${nagArn(bucket)}/*`, objects);
  if (access && access !== 'write') {
    accept(fn, 'Action::s3:GetObject*', 'CDK grantRead: GetObject and its variants (tagging, version, ACL reads) on the media bucket only.');
    accept(fn, 'Action::s3:GetBucket*', 'CDK grantRead: bucket metadata reads (location, for presigned URLs) on the media bucket only.');
    accept(
      fn,
      'Action::s3:List*',
      'CDK grantRead: listing the media bucket (HeadObject on a missing key needs ListBucket to return 404 rather than 403).',
    );
  }
  if ((access && access !== 'read') || puts.length > 0) {
    accept(fn, 'Action::s3:Abort*', 'CDK grantPut: aborting its own multipart uploads of large renders on the media bucket.');
  }
  for (const pattern of puts)
    accept(
      fn,
      `Resource::${nagArn(bucket)}/${pattern}`,
      `Writes only under ${pattern.slice(0, -1)}, whose keys are chosen per tenant and video at run time.`,
    );
  if (deletes.length > 0) {
    accept(
      fn,
      'Action::s3:DeleteObject*',
      "CDK grantDelete: deleting the objects it owns (a deleted video's output, a discarded output); media bucket only, under the prefixes the wiring names.",
    );
  }
  for (const pattern of deletes) {
    if (pattern !== '*')
      accept(
        fn,
        `Resource::${nagArn(bucket)}/${pattern}`,
        `Deletes only under ${pattern.slice(0, -1)}, whose keys are chosen per tenant and video at run time.`,
      );
  }

  if (access && access !== 'write') bucket.grantRead(fn);
  // grantWrite would include s3:DeleteObject*; put is what writing needs, delete is granted apart.
  if (access && access !== 'read') bucket.grantPut(fn);
  for (const pattern of puts) bucket.grantPut(fn, pattern);
  for (const pattern of deletes) bucket.grantDelete(fn, pattern);
}
