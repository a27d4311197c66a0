import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Code, type Function as LambdaFunction, LayerVersion } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { BUILT_IN_BOTS } from '#domain/bot';
import { AlarmTopic } from './constructs/alarm-topic.ts';
import { BotSeed } from './constructs/bot-seed.ts';
import { MediaStorage } from './constructs/media-storage.ts';
import { OperationsDashboard } from './constructs/operations-dashboard.ts';
import { ServiceAlarms } from './constructs/service-alarms.ts';
import { type ApiRoute, VidbotApi } from './constructs/vidbot-api.ts';
import { VIDBOT_ARCHITECTURE, VIDBOT_RUNTIME, VidbotFunction, type VidbotResources } from './constructs/vidbot-function.ts';
import { WorkQueue } from './constructs/work-queue.ts';
import {
  apiMethods,
  assemblyLeaseSeconds,
  type FunctionDecl,
  type FunctionName,
  functions,
  type LayerName,
  layers,
  type QueueName,
  queues,
  type TableDecl,
  type TableName,
  tables,
} from './wiring.ts';

export interface VidbotStackProps extends StackProps {
  /**
   * Directory holding the render function's Dockerfile and bundle, relative to `projectRoot` (or absolute); produced by
   * `npm run bundle:render`.
   * @default 'dist/render-image'
   */
  readonly renderImageDirectory?: string;
  /**
   * Directory holding the prepare function's Dockerfile and bundle, like renderImageDirectory; produced by
   * `npm run bundle:prepare`.
   * @default 'dist/prepare-image'
   */
  readonly prepareImageDirectory?: string;
  /**
   * Directories of the built layers, relative to `projectRoot`.
   * @default - each layer's `directory` in infra/wiring.ts (built by `npm run build:layers`)
   */
  readonly layerDirectories?: Partial<Record<LayerName, string>>;
  /**
   * Handler entries replacing the wiring's, relative to `projectRoot`. For tests and local iteration only:
   * the deployed stack uses the wiring's entries.
   * @default - each function's `entry` in infra/wiring.ts
   */
  readonly entries?: Partial<Record<FunctionName, string>>;
  /**
   * The repository root, against which entries and asset directories are resolved.
   * @default process.cwd()
   */
  readonly projectRoot?: string;
  /**
   * Folder holding each bot's `<look>/preview.png`, relative to `projectRoot`.
   * @default 'functions/render/bots'
   */
  readonly botArtworkDirectory?: string;
  /**
   * Email address subscribed to the alarm topic (every alarm: dead letters, oldest messages, failure rates, API 5xx).
   * @default - no subscription
   */
  readonly alarmEmail?: string;
  /**
   * Powertools log level of every function.
   * @default 'INFO'
   */
  readonly logLevel?: string;
}

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/** A record with one entry per key of a wiring map. */
function forEachKey<K extends string, V>(keys: readonly K[], make: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, V>;
}

/**
 * A crashed assembler's message must come back only once its lease has run out, or it would find the assembly
 * still claimed, stand down and be deleted, and the video would wait for the sweeper.
 */
function checkAssemblyLease() {
  if (assemblyLeaseSeconds >= queues.assemble.visibilityTimeoutSeconds) {
    throw new Error(
      `the assembly lease (${assemblyLeaseSeconds}s) must be shorter than the assemble queue's visibility timeout (${queues.assemble.visibilityTimeoutSeconds}s)`,
    );
  }
}

/**
 * The whole vidbot service, generated from infra/wiring.ts: every table, queue, layer and function the wiring
 * declares, each function triggered as declared (routes, queue, schedule, authorizer) and given exactly the
 * environment and permissions it names.
 */
export class VidbotStack extends Stack {
  readonly api: VidbotApi;
  readonly functions: Record<FunctionName, LambdaFunction>;
  readonly mediaStorage: MediaStorage;
  readonly alarms: ServiceAlarms;
  readonly dashboard: OperationsDashboard;

  constructor(scope: Construct, id: string, props: VidbotStackProps = {}) {
    super(scope, id, props);
    const projectRoot = props.projectRoot ?? process.cwd();
    this.checkBuildOutputs(projectRoot, props);
    checkAssemblyLease();

    const tableResources = forEachKey(Object.keys(tables) as TableName[], (name) => this.table(name, tables[name]));
    this.mediaStorage = new MediaStorage(this, 'MediaStorage');
    const alarmTopic = new AlarmTopic(this, 'AlarmTopic', { email: props.alarmEmail }).topic;
    const workQueues = forEachKey(
      Object.keys(queues) as QueueName[],
      (name) => new WorkQueue(this, `${pascal(name)}Queue`, { decl: queues[name], alarmTopic }),
    );
    const resources: VidbotResources = {
      tables: tableResources,
      queues: forEachKey(Object.keys(queues) as QueueName[], (name) => workQueues[name].queue),
      deadLetterQueues: forEachKey(Object.keys(queues) as QueueName[], (name) => workQueues[name].deadLetterQueue),
      bucket: this.mediaStorage.bucket,
      layers: forEachKey(Object.keys(layers) as LayerName[], (name) =>
        this.layer(name, projectRoot, props.layerDirectories?.[name] ?? layers[name].directory),
      ),
    };

    this.functions = forEachKey(Object.keys(functions) as FunctionName[], (name) => this.function(name, resources, projectRoot, props));
    for (const name of Object.keys(functions) as FunctionName[]) this.trigger(name, workQueues);
    this.api = new VidbotApi(this, 'Api', {
      authorizer: this.authorizer(),
      routes: apiMethods(functions).map((method): ApiRoute => ({ ...method, handler: this.functions[method.function as FunctionName] })),
    });

    // Observability: the rate alarms (each queue has its own) and the dashboard.
    this.alarms = new ServiceAlarms(this, 'Alarms', { alarmTopic, apiStage: this.api.api.deploymentStage });
    this.dashboard = new OperationsDashboard(this, 'Operations', {
      functions: this.functions,
      queues: workQueues,
      apiStage: this.api.api.deploymentStage,
      serviceAlarms: this.alarms,
    });
    new BotSeed(this, 'BotSeed', {
      bots: BUILT_IN_BOTS,
      table: tableResources.bots,
      bucket: this.mediaStorage.bucket,
      projectRoot,
      artworkDirectory: props.botArtworkDirectory,
    });
    this.outputs(tableResources, workQueues, alarmTopic);
  }

  /** Build outputs are checked first, so a missing one fails in a second rather than after bundling. */
  private checkBuildOutputs(projectRoot: string, props: VidbotStackProps) {
    for (const [name, decl] of Object.entries(functions) as [FunctionName, FunctionDecl][]) {
      const directory = decl.image ? this.imageDirectory(name, props) : undefined;
      if (directory && !existsSync(resolve(projectRoot, directory, 'Dockerfile'))) {
        throw new Error(
          `${directory}/Dockerfile not found: run \`npm run bundle:${(decl.image ?? name).split('/').pop()}\` to produce the ${name} image directory before synth`,
        );
      }
    }
  }

  private function(name: FunctionName, resources: VidbotResources, projectRoot: string, props: VidbotStackProps): LambdaFunction {
    const decl: FunctionDecl = functions[name];
    return new VidbotFunction(this, pascal(name), {
      decl,
      resources,
      projectRoot,
      entry: props.entries?.[name],
      imageDirectory: decl.image ? this.imageDirectory(name, props) : undefined,
      logLevel: props.logLevel,
    }).function;
  }

  /** What starts the function, as the wiring declares: its queue, its schedule (routes come with the API). */
  private trigger(name: FunctionName, workQueues: Record<QueueName, WorkQueue>) {
    const decl: FunctionDecl = functions[name];
    const fn = this.functions[name];
    if (decl.trigger === 'queue') {
      // Lambda rejects an SQS mapping whose queue would re-deliver a message while it is still being handled.
      const queueDecl = queues[decl.queue];
      if (queueDecl.visibilityTimeoutSeconds < decl.timeoutSeconds) {
        throw new Error(
          `queue ${decl.queue} has visibility timeout ${queueDecl.visibilityTimeoutSeconds}s, below the ${decl.timeoutSeconds}s timeout of its consumer ${name}`,
        );
      }
      fn.addEventSource(
        new SqsEventSource(workQueues[decl.queue].queue, {
          batchSize: decl.batchSize,
          maxConcurrency: 'maxConcurrency' in decl ? decl.maxConcurrency : undefined,
          reportBatchItemFailures: true,
        }),
      );
    } else if (decl.trigger === 'schedule') {
      new Rule(this, `${pascal(name)}Schedule`, {
        description: `Runs the vidbot ${name} every ${decl.everyMinutes} minutes`,
        schedule: Schedule.rate(Duration.minutes(decl.everyMinutes)),
        targets: [new LambdaTarget(fn, { retryAttempts: 2 })],
      });
    }
  }

  /** The one function the wiring declares as the API's authorizer. */
  private authorizer(): LambdaFunction {
    const names = (Object.keys(functions) as FunctionName[]).filter((name) => functions[name].trigger === 'authorizer');
    if (names.length === 0) throw new Error('the wiring declares no authorizer function');
    if (names.length > 1) throw new Error(`only one authorizer function is supported, found a second: ${names[1]}`);
    return this.functions[names[0]!];
  }

  /** What `npm run keys` and the docs' curl examples read. */
  private outputs(tableResources: Record<TableName, Table>, workQueues: Record<QueueName, WorkQueue>, alarmTopic: Topic) {
    new CfnOutput(this, 'ApiUrl', { value: this.api.api.url, description: 'Base URL of the API (paths start with /v1)' });
    new CfnOutput(this, 'UsagePlanId', {
      value: this.api.usagePlan.usagePlanId,
      description: 'Usage plan of every key (npm run keys adds their API Gateway keys)',
    });
    new CfnOutput(this, 'BucketName', { value: this.mediaStorage.bucket.bucketName });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarmTopic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: this.dashboard.dashboard.dashboardName, description: 'The CloudWatch dashboard of the service' });
    for (const [name, table] of Object.entries(tableResources)) new CfnOutput(this, `${pascal(name)}TableName`, { value: table.tableName });
    for (const [name, q] of Object.entries(workQueues)) {
      new CfnOutput(this, `${pascal(name)}QueueUrl`, { value: q.queue.queueUrl });
      new CfnOutput(this, `${pascal(name)}DeadLetterQueueUrl`, { value: q.deadLetterQueue.queueUrl });
    }
  }

  private table(name: TableName, decl: TableDecl): Table {
    const table = new Table(this, `${pascal(name)}Table`, {
      partitionKey: { name: decl.partitionKey, type: AttributeType.STRING },
      sortKey: decl.sortKey ? { name: decl.sortKey, type: AttributeType.STRING } : undefined,
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      timeToLiveAttribute: decl.ttlAttribute,
      // A table whose records all expire (TTL) holds nothing worth keeping past the stack; the others do.
      removalPolicy: decl.ttlAttribute ? RemovalPolicy.DESTROY : RemovalPolicy.RETAIN,
    });
    for (const [indexName, index] of Object.entries(decl.indexes ?? {})) {
      table.addGlobalSecondaryIndex({
        indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: index.sortKey ? { name: index.sortKey, type: index.sortKeyType === 'N' ? AttributeType.NUMBER : AttributeType.STRING } : undefined,
        projectionType: ProjectionType.ALL,
      });
    }
    return table;
  }

  private layer(name: LayerName, projectRoot: string, relativeDirectory: string): LayerVersion {
    const directory = resolve(projectRoot, relativeDirectory);
    if (!existsSync(directory) || readdirSync(directory).length === 0) {
      throw new Error(`layer ${name}: ${relativeDirectory} is missing or empty: run \`npm run build:layers\` before synth`);
    }
    return new LayerVersion(this, `${pascal(name)}Layer`, {
      code: Code.fromAsset(directory, { exclude: ['.build-stamp'] }),
      compatibleArchitectures: [VIDBOT_ARCHITECTURE],
      compatibleRuntimes: [VIDBOT_RUNTIME],
      description: layers[name].description,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** A function's image directory, by the image it declares (prepare and prepareFootage share one). */
  private imageDirectory(name: FunctionName, props: VidbotStackProps): string {
    const { image } = functions[name] as FunctionDecl;
    if (image === 'functions/render') return props.renderImageDirectory ?? 'dist/render-image';
    if (image === 'functions/prepare') return props.prepareImageDirectory ?? 'dist/prepare-image';
    throw new Error(
      `function ${name} declares image ${image}, but only the render and prepare images have a build (npm run bundle:render, bundle:prepare)`,
    );
  }
}
